import { attachSnowflakes, betterSqlite3Module, SnowflakeId } from '@snowkey/sequelize';
import Database from 'better-sqlite3';
import { DataTypes, Model, type ModelStatic, Sequelize } from 'sequelize';
import type { BenchDatabase } from '../bench-database.js';
import { type AdapterBench, type BenchRow, callerRows, inChunks, VARIANT_TABLE } from './adapter-bench.js';

const [bulkCreate, create] = [
  { name: 'bulkCreate(1000 rows)', rowsPerCall: 1000 },
  { name: 'create(1 row)', rowsPerCall: 1 },
];

/** Sequelize 6 on each dialect, as the adapter's README sets it up (better-sqlite3 for SQLite). */
function open(db: BenchDatabase): Sequelize {
  const { url, filename, connection: c } = db.database;
  const common = { logging: false, pool: { max: 2, min: 0 } } as const;
  if (db.dialect === 'sqlite')
    return new Sequelize({
      ...common,
      dialect: 'sqlite',
      storage: filename!,
      dialectModule: betterSqlite3Module(Database),
    });
  if (db.dialect === 'postgres') return new Sequelize(url, { ...common, dialect: 'postgres' });
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
  paths: [bulkCreate!, create!],
  async open(db, variant, generator) {
    const sequelize = open(db);
    const id = {
      autoincrement: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true },
      'hand-set': { type: DataTypes.BIGINT, primaryKey: true },
      snowkey: SnowflakeId(),
    }[variant];
    const Row = class extends Model {} as ModelStatic<Model>;
    Row.init(
      {
        id,
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
      async write(path, rows) {
        if (path === bulkCreate) await inChunks(rows, 1000, (c) => Row.bulkCreate(withIds(c)));
        else for (const row of rows) await Row.create(withIds([row])[0]);
      },
      close: () => sequelize.close(),
    };
  },
};
