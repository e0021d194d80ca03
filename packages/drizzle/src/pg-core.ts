export { type PgSnowflakeIdBuilder, snowflakeId, snowflakeRef } from './columns/pg-snowflake-id.js';
