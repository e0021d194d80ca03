/**
 * The contract of the real-database test harness (implemented in ./databases.ts).
 * Every test file gets its own fresh database per dialect and drops it afterwards.
 */
export type Dialect = 'postgres' | 'mysql' | 'sqlite';

export interface TestDatabase {
  readonly dialect: Dialect;
  /** Database name (pg/mysql) or file base name (sqlite). */
  readonly name: string;
  /** A connection URL: postgres://..., mysql://..., or file:/abs/path.sqlite for sqlite. */
  readonly url: string;
  /** For sqlite: the absolute file path. */
  readonly filename?: string;
  /** Connection parts for drivers that want them. */
  readonly connection: { host?: string; port?: number; user?: string; password?: string; database: string };
  /**
   * Raw SQL through the plain driver (pg / mysql2 with bigNumberStrings / better-sqlite3 with
   * safeIntegers), independent of every adapter: the oracle tests read back with. Placeholders
   * are `?` on every dialect. BIGINT values come back as strings on every dialect.
   */
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}
