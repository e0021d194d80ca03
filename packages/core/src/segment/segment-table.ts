import { checkTableName, OwnTableStatements } from '../own-table.js';
import type { SqlDialect } from '../sql-client.js';

/** The default name of the segment allocation table. */
export const DEFAULT_SEGMENT_TABLE = 'snowkey_segments';

/**
 * The segment table's DDL (one row per tag, as Leaf's `leaf_alloc`), the same text on every dialect.
 *
 * @example
 * await client.execute(segmentTableDdl('postgres'));
 */
export function segmentTableDdl(_dialect: SqlDialect, table: string = DEFAULT_SEGMENT_TABLE): string {
  // Times are ms since 1970 in BIGINT, so no dialect's date type or time zone gets involved.
  // max_id: the highest id handed out to any allocator, only grows. step: the base step that
  // allocators setting none take and grow from.
  return `CREATE TABLE IF NOT EXISTS ${checkTableName(table)} (
  tag VARCHAR(128) NOT NULL PRIMARY KEY,
  max_id BIGINT NOT NULL,
  step INTEGER NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
)`;
}

/**
 * The SQL of the segment store on one table. The one write that hands out ids, `advance`, is a
 * single conditional statement: it moves `max_id` from the value the caller read to the end of its
 * range, and matches no row when any other allocator moved it first. Every range therefore starts
 * where the previous winner's ended, whatever the interleaving, on every dialect.
 *
 * Ids are bound as decimal text and cast to BIGINT in SQL, and read back as text, so no driver
 * turns them into a double and every dialect compares integers (MySQL documents a comparison of a
 * string with a number as one of doubles, which cannot tell 2^62 + 1 from 2^62 + 2).
 */
export class SegmentStatements extends OwnTableStatements {
  constructor(dialect: SqlDialect, table: string) {
    super(dialect, table, 'tag', segmentTableDdl);
  }

  /** Creates the tag's row; changes 0 rows when it exists. params: tag, maxId, step, createdAt, updatedAt */
  get insertIfAbsent(): string {
    return this.unlessPresent(
      `INSERT INTO ${this.table} (tag, max_id, step, created_at, updated_at) VALUES (?, ${this.#id()}, ?, ?, ?)`,
    );
  }

  /** params: tag. Columns: max_id (text), step. */
  get read(): string {
    const text = this.dialect === 'mysql' ? 'CHAR' : 'TEXT';
    return `SELECT CAST(max_id AS ${text}) AS max_id, step FROM ${this.table} WHERE tag = ?`;
  }

  /** Takes the range after `expected`, up to `next`, if nobody took one since. params: next, updatedAt, tag, expected */
  get advance(): string {
    return `UPDATE ${this.table} SET max_id = ${this.#id()}, updated_at = ? WHERE tag = ? AND max_id = ${this.#id()}`;
  }

  #id(): string {
    return this.dialect === 'mysql' ? 'CAST(? AS SIGNED)' : 'CAST(? AS BIGINT)';
  }
}
