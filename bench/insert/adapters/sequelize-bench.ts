import { attachSnowflakes, betterSqlite3Module, SnowflakeId } from '@snowkey/sequelize';
import Database from 'better-sqlite3';
import { DataTypes, Model, type ModelAttributes, type ModelStatic, Sequelize } from 'sequelize';
import type { BenchDatabase } from '../bench-database.js';
import {
  type AdapterBench,
  type BenchRow,
  callerRows,
  inChunks,
  VARIANT_TABLE,
  type WritePath,
} from './adapter-bench.js';

const paths = {
  bulkCreate: { name: 'bulkCreate(1000 rows)', rowsPerCall: 1000 },
  create: { name: 'create(1 row)', rowsPerCall: 1 },
} satisfies Record<string, WritePath>;

/** Sequelize 6 on each dialect, as the adapter's README sets it up (better-sqlite3 for SQLite). */
function open(db: BenchDatabase): Sequelize {
  const c = db.database;
  const common = { logging: false, pool: { max: 2, min: 0 } } as const;
  if (db.dialect === 'sqlite') {
    return new Sequelize({
      ...common,
      dialect: 'sqlite',
      storage: c.filename!,
      dialectModule: betterSqlite3Module(Database),
    });
  }
  if (db.dialect === 'postgres') return new Sequelize(c.url, { ...common, dialect: 'postgres' });
  const { host, port, user, password, database } = c.connection;
  return new Sequelize(database, user ?? 'root', password ?? '', {
    ...common,
    host: host ?? '127.0.0.1',
    ...(port === undefined ? {} : { port }),
    dialect: 'mysql',
    dialectOptions: { supportBigNumbers: true, bigNumberStrings: true },
  });
}

const payload: ModelAttributes = {
  ownerId: { type: DataTypes.BIGINT, field: 'owner_id', allowNull: false },
  name: { type: DataTypes.STRING(32), allowNull: false },
  score: { type: DataTypes.INTEGER, allowNull: false },
  createdAt: { type: DataTypes.BIGINT, field: 'created_at', allowNull: false },
};

/** Sequelize 6: `bulkCreate` of 1000 rows (hooks per batch, not per row) and `create` of one. */
export const sequelizeBench: AdapterBench = {
  name: 'Sequelize',
  paths: Object.values(paths),
  async open(db, variant, generator) {
    const sequelize = open(db);
    const key =
      variant === 'autoincrement'
        ? { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true }
        : variant === 'hand-set'
          ? { type: DataTypes.BIGINT, primaryKey: true }
          : SnowflakeId();
    const Row = class extends Model {} as ModelStatic<Model>;
    Row.init({ id: key, ...payload }, { sequelize, tableName: VARIANT_TABLE[variant], timestamps: false });
    if (variant === 'snowkey') attachSnowflakes(sequelize, { generator });
    const withIds = (rows: readonly BenchRow[]) => callerRows(rows, variant, generator);
    return {
      async write(path, rows) {
        if (path === paths.bulkCreate) await inChunks(rows, 1000, (c) => Row.bulkCreate(withIds(c)));
        else for (const row of rows) await Row.create(withIds([row])[0]);
      },
      close: () => sequelize.close(),
    };
  },
};
