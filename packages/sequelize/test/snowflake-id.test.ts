import Database from 'better-sqlite3';
import { DataTypes, Model, Sequelize } from 'sequelize';
import { expect, test } from 'vitest';
import { betterSqlite3Module, SnowflakeId } from '../src/index.js';

function defineRow(id: ReturnType<typeof SnowflakeId>) {
  const sequelize = new Sequelize({
    dialect: 'sqlite',
    storage: ':memory:',
    dialectModule: betterSqlite3Module(Database),
    logging: false,
  });
  const Row = class extends Model {}.init(
    { id, name: DataTypes.STRING(100) },
    { sequelize, tableName: 'rows', timestamps: false },
  );
  return { sequelize, Row };
}

test('GIVEN SnowflakeId() THEN the attribute inherits a default that is a function and owns none', () => {
  const attribute = SnowflakeId();
  expect(Object.hasOwn(attribute, 'defaultValue')).toBe(false);
  expect(typeof attribute.defaultValue).toBe('function');
});

test('GIVEN a model whose only default is a SnowflakeId() THEN Sequelize builds no per-instance defaults for it (as with a hand-set key)', async () => {
  const { sequelize, Row } = defineRow(SnowflakeId());
  // Sequelize's own flag: with it set, every new instance runs its default-value code.
  expect((Row as unknown as { _hasDefaultValues: boolean })._hasDefaultValues).toBe(false);
  await sequelize.close();
});

test('GIVEN a SnowflakeId() model THEN the CREATE TABLE Sequelize writes has no DEFAULT for the id', async () => {
  const { sequelize, Row } = defineRow(SnowflakeId());
  const sql: string[] = [];
  await Row.sync({ logging: (s: string) => sql.push(s) });
  const create = sql.find((s) => s.includes('CREATE TABLE'));
  // SQLite: Sequelize writes a BIGINT primary key as the rowid, INTEGER PRIMARY KEY.
  expect(create).toMatch(/`id` INTEGER PRIMARY KEY,/);
  expect(create).not.toMatch(/DEFAULT/);
  await sequelize.close();
});
