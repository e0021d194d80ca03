import { InvalidArgumentError } from './errors.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A trigger that makes SQLite refuse a NULL or omitted key (and one below 1) in an
 * `INTEGER PRIMARY KEY` table, instead of filling in `max(rowid) + 1`.
 *
 * @example
 * db.exec(sqliteKeyGuardDdl('players')); // then an INSERT without an id is refused
 */
export function sqliteKeyGuardDdl(table: string, column = 'id'): string {
  for (const [argument, name] of [
    ['table', table],
    ['column', column],
  ] as const) {
    if (typeof name !== 'string' || !IDENTIFIER.test(name)) {
      throw new InvalidArgumentError(
        argument,
        'an SQL identifier (letters, digits and _, not starting with a digit)',
        name,
      );
    }
  }
  return (
    `CREATE TRIGGER IF NOT EXISTS "${table}_${column}_key_guard" BEFORE INSERT ON "${table}" ` +
    `WHEN NEW."${column}" IS NULL OR NEW."${column}" < 1 ` +
    `BEGIN SELECT RAISE(ABORT, '${table}.${column} must be set by the application: a key in 1..2^63-1, not NULL'); END`
  );
}
