export { type SQLiteSnowflakeIdBuilder, snowflakeId, snowflakeRef } from './columns/sqlite-snowflake-id.js';
