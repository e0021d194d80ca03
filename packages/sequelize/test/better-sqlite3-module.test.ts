import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DataTypes, Model, QueryTypes, Sequelize } from 'sequelize';
import { afterAll, expect, test } from 'vitest';
import { betterSqlite3Module } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'snowkey-sequelize-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function open(onConnect?: (db: { pragma(s: string): unknown }) => void) {
  return new Sequelize({
    dialect: 'sqlite',
    storage: join(dir, `${Math.random().toString(36).slice(2)}.sqlite`),
    dialectModule: betterSqlite3Module(Database, onConnect ? { onConnect } : {}),
    logging: false,
  });
}

test('GIVEN onConnect THEN it runs on the connection of every transaction as well', async () => {
  const seen: number[] = [];
  const sequelize = open((db) => {
    db.pragma('busy_timeout = 4321');
    seen.push(seen.length);
  });
  try {
    const read = () =>
      sequelize.query<{ timeout: number }>('PRAGMA busy_timeout', { type: QueryTypes.SELECT });
    expect(await read()).toEqual([{ timeout: 4321 }]);
    await sequelize.transaction(async (transaction) => {
      expect(await sequelize.query('PRAGMA busy_timeout', { type: QueryTypes.SELECT, transaction })).toEqual([
        { timeout: 4321 },
      ]);
    });
    expect(seen.length).toBeGreaterThanOrEqual(2);
  } finally {
    await sequelize.close();
  }
});

test('GIVEN a model with booleans, small integers and a duplicate key THEN values bind as sqlite3 would and SQLite errors keep their code', async () => {
  const sequelize = open();
  class Flag extends Model {
    declare id: number;
    declare on: boolean;
    declare n: number;
  }
  Flag.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      on: DataTypes.BOOLEAN,
      n: DataTypes.INTEGER,
    },
    { sequelize, tableName: 'flags', timestamps: false },
  );
  try {
    await sequelize.sync();
    const [a, b] = await Flag.bulkCreate([
      { on: true, n: 1 },
      { on: false, n: 2 },
    ]);
    expect([a!.id, b!.id]).toEqual([1, 2]); // autoincrement ids come back, as with sqlite3
    const rows = await Flag.findAll({ order: [['id', 'ASC']], raw: true });
    expect(rows).toEqual([
      { id: 1, on: 1, n: 1 },
      { id: 2, on: 0, n: 2 },
    ]);
    const err = await Flag.create({ id: 1, on: true, n: 3 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({
      name: 'SequelizeUniqueConstraintError',
      parent: { code: 'SQLITE_CONSTRAINT_PRIMARYKEY' },
    });
  } finally {
    await sequelize.close();
  }
});
