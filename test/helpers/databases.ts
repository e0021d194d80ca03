/**
 * The real-database test harness (contract in ./test-database.ts): fresh databases per test file
 * on PostgreSQL, MySQL/MariaDB and SQLite, chosen with `DIALECTS`, reached through
 * `SNOWKEY_PG_URL` / `SNOWKEY_MYSQL_URL` (or testcontainers when Docker answers).
 */
export {
  createTestDatabase,
  DatabaseUnavailableError,
  type DroppableTestDatabase,
  selectedDialects,
} from './create-test-database.js';
export { resolveServer, type ServerResolution } from './database-servers.js';
export { type DialectContext, describeEachDialect } from './describe-each-dialect.js';
export type { Dialect, TestDatabase } from './test-database.js';
