import { InvalidArgumentError } from './errors.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The trigger that makes SQLite refuse a missing key in a rowid table. On SQLite the fastest and
 * smallest form of a snowflake key is the rowid itself, `id INTEGER PRIMARY KEY`: one B-tree and
 * no second index, holding any 64-bit signed id exactly. But SQLite fills a NULL or omitted rowid
 * in by itself (`max(rowid) + 1`: 1, 2, 3...), so a write that bypassed the adapter would store a
 * small key that collides with another shard's on a merge, where a `BIGINT NOT NULL PRIMARY KEY`
 * would have refused it. This trigger refuses it, and a key below 1, before the row is written.
 *
 * ```sql
 * CREATE TABLE players (id INTEGER PRIMARY KEY, name VARCHAR(40) NOT NULL);
 * CREATE TRIGGER IF NOT EXISTS "players_id_key_guard" BEFORE INSERT ON "players"
 *   WHEN NEW."id" IS NULL OR NEW."id" < 1
 *   BEGIN SELECT RAISE(ABORT, 'players.id must be set by the application: a key in 1..2^63-1, not NULL'); END
 * ```
 *
 * @example
 * db.exec('CREATE TABLE players (id INTEGER PRIMARY KEY, name VARCHAR(40) NOT NULL)');
 * db.exec(sqliteKeyGuardDdl('players'));
 * db.prepare('INSERT INTO players (name) VALUES (?)').run('Aria');
 * // SqliteError: players.id must be set by the application: a key in 1..2^63-1, not NULL
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
