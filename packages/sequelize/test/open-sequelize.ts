import type { TestDatabase } from '@snowkey/test-harness';
import Database from 'better-sqlite3';
import { type Options, Sequelize } from 'sequelize';
import { betterSqlite3Module } from '../src/index.js';

/**
 * A Sequelize instance on the harness's database, set up as the README says: `pg`, `mysql2` (the
 * `mysql` dialect, on MariaDB here) or `mariadb`, and better-sqlite3 through `betterSqlite3Module`
 * for SQLite. `options` go last, to test other set-ups. Small pools: the machine is shared.
 */
export function openSequelize(
  db: TestDatabase,
  { mysqlDialect = 'mysql', ...options }: Options & { mysqlDialect?: 'mysql' | 'mariadb' } = {},
): Sequelize {
  const common: Options = { logging: false, pool: { max: 2, min: 0 } };
  if (db.dialect === 'sqlite') {
    return new Sequelize({
      ...common,
      dialect: 'sqlite',
      storage: db.filename!,
      dialectModule: betterSqlite3Module(Database),
      ...options,
    });
  }
  if (db.dialect === 'postgres') return new Sequelize(db.url, { ...common, dialect: 'postgres', ...options });
  const { host, port, user, password, database } = db.connection;
  return new Sequelize(database, user ?? 'root', password ?? '', {
    ...common,
    host: host ?? '127.0.0.1',
    ...(port === undefined ? {} : { port }),
    dialect: mysqlDialect,
    ...options,
  });
}
