import { InvalidArgumentError } from './errors.js';
import type { SqlDialect } from './sql-client.js';

const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

/** Validates a table name (optionally `schema.table`): it is spliced into SQL, so only identifiers pass. */
export function checkTableName(table: unknown): string {
  if (typeof table !== 'string' || !TABLE_NAME.test(table) || table.length > 128) {
    throw new InvalidArgumentError(
      'table',
      'an identifier such as "snowkey_node_leases" or "app.node_leases"',
      table,
    );
  }
  return table;
}

/**
 * What the SQL of the tables snowkey keeps for itself (node leases, id segments) has in common:
 * a checked table name, the table's DDL, a probe for its existence, and the form of an INSERT that
 * does nothing when the row's key is already there.
 */
export abstract class OwnTableStatements {
  readonly table: string;
  protected readonly dialect: SqlDialect;
  readonly #keyColumn: string;
  readonly #ddl: (dialect: SqlDialect, table: string) => string;

  protected constructor(
    dialect: SqlDialect,
    table: string,
    keyColumn: string,
    ddl: (dialect: SqlDialect, table: string) => string,
  ) {
    this.dialect = dialect;
    this.table = checkTableName(table);
    this.#keyColumn = keyColumn;
    this.#ddl = ddl;
  }

  get create(): string {
    return this.#ddl(this.dialect, this.table);
  }

  /** Cheap existence check after a failed CREATE (PostgreSQL can race on concurrent CREATE ... IF NOT EXISTS). */
  get probe(): string {
    return `SELECT ${this.#keyColumn} FROM ${this.table} WHERE 1 = 0`;
  }

  /**
   * `insert` (an `INSERT INTO <table> (...) VALUES (...)`) made to change 0 rows, not fail, when a
   * row with the same key exists.
   */
  protected unlessPresent(insert: string): string {
    // MySQL: INSERT IGNORE reports 0 rows on a duplicate key even with CLIENT_FOUND_ROWS (which
    // mysql2 sets), where ON DUPLICATE KEY UPDATE x = x would report 1.
    if (this.dialect === 'mysql') return insert.replace('INSERT INTO', 'INSERT IGNORE INTO');
    return `${insert} ON CONFLICT (${this.#keyColumn}) DO NOTHING`;
  }
}
