export { verifyBigintReads } from './bigint-reads.js';
export type { DrizzleDatabase } from './drizzle-driver.js';
export { drizzleSqlClient } from './drizzle-sql-client.js';
export type { IdGeneratorSource } from './snowflake-id-type.js';
