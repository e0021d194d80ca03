// Core owns it (Drizzle needs it too); re-exported so a TypeORM application imports from its adapter.
export { type AttachSnowflakesOptions, attachSnowflakes } from './attach-snowflakes.js';
export { BigIntColumn, type BigIntColumnOptions } from './bigint-column.js';
export { bigintTransformer } from './bigint-transformer.js';
export { IdPrecisionError, SnowflakeConfigError } from './errors.js';
export { SnowflakeColumn, type SnowflakeColumnOptions } from './snowflake-column.js';
export { typeormSqlClient } from './typeorm-sql-client.js';
