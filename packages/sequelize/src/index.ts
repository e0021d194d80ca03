export { type AttachSnowflakesOptions, attachSnowflakes } from './attach-snowflakes.js';
export {
  type BetterSqlite3Constructor,
  type BetterSqlite3Database,
  betterSqlite3Module,
} from './better-sqlite3-module.js';
export { IdPrecisionError, SnowflakeConfigError } from './errors.js';
export { sequelizeSqlClient } from './sequelize-sql-client.js';
export { BigIntKey, type BigIntKeyOptions, SnowflakeId, type SnowflakeIdOptions } from './snowflake-id.js';
