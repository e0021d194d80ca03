import type { SqlClient } from '@snowkey/core';

/**
 * A value the engine reads from a row and writes back: what `pg`, `mysql2` and `better-sqlite3`
 * return for the usual column types. BIGINT is always a `bigint` (the clients of this package make
 * every driver return it exactly).
 */
export type SqlValue = string | number | bigint | boolean | Date | Uint8Array | null;

/**
 * Core's {@link SqlClient} with the wider values the engine copies (dates, bytes, booleans).
 * Queries return BIGINT columns as `bigint` on every dialect.
 */
export interface MergeSqlClient extends SqlClient {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<Row[]>;
  execute(sql: string, params?: readonly SqlValue[]): Promise<number>;
}

/**
 * One connection of a {@link MergeDatabase}, held for a sequence of statements: temporary tables
 * live on it, and its transactions are its own.
 */
export interface MergeSession extends MergeSqlClient {
  /** Runs `body` in one transaction on this connection: committed when it resolves, rolled back when it throws. */
  transaction<T>(body: (tx: MergeSqlClient) => Promise<T>): Promise<T>;
}

/**
 * A database the engine merges from or into: statements, transactions, sessions, and a name for
 * reports. Build one with {@link openDatabase} from a URL, or with {@link pgDatabase},
 * {@link mysqlDatabase} or {@link sqliteDatabase} from a pool you already have.
 */
export interface MergeDatabase extends MergeSqlClient {
  /** A label for reports: the database name, or the file name on SQLite. */
  readonly name: string;
  /** Runs `body` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(body: (tx: MergeSqlClient) => Promise<T>): Promise<T>;
  /** Runs `body` on one connection of its own, released when it settles. */
  session<T>(body: (session: MergeSession) => Promise<T>): Promise<T>;
  /** Closes what {@link openDatabase} opened; a no-op for a pool you passed in. */
  close(): Promise<void>;
}
