import { attachSnowflakes, betterSqlite3Module, SnowflakeId } from '@snowkey/sequelize';
import type { TestDatabase } from '@snowkey/test-harness';
import Database from 'better-sqlite3';
import { DataTypes, Model, type ModelStatic, Sequelize } from 'sequelize';
import { type AdapterBench, type BenchRow, callerRows, inChunks, VARIANT_TABLE } from './adapter-bench.js';

/** Sequelize 6 on each dialect, as the adapter's README sets it up (better-sqlite3 for SQLite). */
function open({ dialect, url, filename, connection: c }: TestDatabase): Sequelize {
  const common = { logging: false, pool: { max: 2, min: 0 } } as const;
  if (dialect === 'sqlite')
    return new Sequelize({
      ...common,
      dialect,
      storage: filename!,
      dialectModule: betterSqlite3Module(Database),
    });
  if (dialect === 'postgres') return new Sequelize(url, { ...common, dialect });
  return new Sequelize(c.database, c.user ?? 'root', c.password ?? '', {
    ...common,
    host: c.host ?? '127.0.0.1',
    ...(c.port === undefined ? {} : { port: c.port }),
    dialect: 'mysql',
    dialectOptions: { supportBigNumbers: true, bigNumberStrings: true },
  });
}

/** Sequelize 6: `bulkCreate` of 1000 rows (hooks per batch, not per row) and `create` of one. */
export const sequelizeBench: AdapterBench = {
  name: 'Sequelize',
  paths: [{ name: 'bulkCreate(1000 rows)' }, { name: 'create(1 row)', single: true }],
  async open(database, variant, generator) {
    const sequelize = open(database);
    const Row = class extends Model {} as ModelStatic<Model>;
    Row.init(
      {
        id: {
          autoincrement: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
          'hand-set': { type: DataTypes.BIGINT, primaryKey: true },
          snowkey: SnowflakeId(),
        }[variant],
        ownerId: { type: DataTypes.BIGINT, field: 'owner_id', allowNull: false },
        name: { type: DataTypes.STRING(32), allowNull: false },
        score: { type: DataTypes.INTEGER, allowNull: false },
        createdAt: { type: DataTypes.BIGINT, field: 'created_at', allowNull: false },
      },
      { sequelize, tableName: VARIANT_TABLE[variant], timestamps: false },
    );
    if (variant === 'snowkey') attachSnowflakes(sequelize, { generator });
    const withIds = (rows: readonly BenchRow[]) => callerRows(rows, variant, generator);
    return {
      writes: [
        (rows) => inChunks(rows, 1000, (c) => Row.bulkCreate(withIds(c))),
        (rows) => inChunks(rows, 1, (c) => Row.create(withIds(c)[0])),
      ],
      close: () => sequelize.close(),
    };
  },
};
