export { type MySqlSnowflakeIdBuilder, snowflakeId, snowflakeRef } from './columns/mysql-snowflake-id.js';
export { type StoredIdsOptions, storedIds } from './stored-ids.js';
