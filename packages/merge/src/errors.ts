import { SnowkeyError } from '@snowkey/core';

/**
 * The schema cannot be merged or re-keyed as it is: a table without a primary key or a NOT NULL
 * unique key, a foreign-key cycle through NOT NULL columns, a table or column the target lacks, a
 * rename policy on a column that is not text. `problems` lists every one; nothing was written.
 *
 * @example
 * try { await runMerge({ sources, target }); } catch (err) {
 *   if (err instanceof MergeSchemaError) console.error(err.problems.join('\n'));
 * }
 */
export class MergeSchemaError extends SnowkeyError {
  override readonly code: string = 'SNOWKEY_MERGE_SCHEMA';
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(`the schema cannot be merged as it is:\n  - ${problems.join('\n  - ')}`);
    this.problems = problems;
  }
}

/** One conflict a merge refused: a value (or a key) a source row brings that another row holds. */
export interface MergeConflict {
  readonly table: string;
  /** `PRIMARY KEY`, or the unique constraint's columns (`handle`, `guild_id+name`). */
  readonly constraint: string;
  /** The source's label. */
  readonly source: string;
  /** The row's key in the source. */
  readonly key: readonly unknown[];
  readonly value: readonly unknown[];
}

/**
 * Source rows meet conflicts whose policy is `fail`: their primary key is already held by another
 * row (`constraint` is `PRIMARY KEY`), or a value of a unique constraint is. Every conflict is found
 * before the first row is written, so the target's tables hold nothing of this merge; `counts`
 * gives how many rows meet each, `conflicts` the first few of each. Choose a policy and run again.
 *
 * @example
 * try { await runMerge(inputs); } catch (err) {
 *   // MergeConflictError: 57 rows meet conflicts under the fail policy, nothing was written:
 *   //   accounts.handle: 57 rows, e.g. "Aria" from S2 (key [7]); choose rename or skip for accounts.handle
 *   if (err instanceof MergeConflictError) console.error(err.counts); // { 'accounts.handle': 57 }
 * }
 */
export class MergeConflictError extends SnowkeyError {
  override readonly code: string = 'SNOWKEY_MERGE_CONFLICT';
  /** Rows in conflict per `table.constraint`. */
  readonly counts: Readonly<Record<string, number>>;
  /** Up to three examples per `table.constraint`. */
  readonly conflicts: readonly MergeConflict[];
  /** The first example (kept for code that reads one conflict). */
  readonly table: string;
  readonly constraint: string;
  readonly source: string;
  readonly key: readonly unknown[];
  readonly value: readonly unknown[];
  constructor(counts: Readonly<Record<string, number>>, conflicts: readonly MergeConflict[]) {
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    const lines = Object.entries(counts).map(([id, n]) => {
      const e = conflicts.filter((c) => `${c.table}.${c.constraint}` === id);
      const hint =
        e[0]?.constraint === 'PRIMARY KEY'
          ? 'shards keyed by AUTO_INCREMENT must be re-keyed first (snowkey rekey)'
          : `choose a policy for ${id} (rename or skip), or change the values in the sources`;
      return `  ${id}: ${n} rows, e.g. ${e.map(show).join(', ')}; ${hint}`;
    });
    super(`${total} rows meet conflicts under the fail policy, nothing was written:\n${lines.join('\n')}`);
    this.counts = counts;
    this.conflicts = conflicts;
    const first = conflicts[0]!;
    this.table = first.table;
    this.constraint = first.constraint;
    this.source = first.source;
    this.key = first.key;
    this.value = first.value;
  }
}

function show(c: MergeConflict): string {
  const v = c.value.map((x) => (typeof x === 'string' ? JSON.stringify(x) : String(x))).join(', ');
  return `${c.table}.${c.constraint} = ${v} from ${c.source} (key [${c.key.map(String).join(', ')}])`;
}

/**
 * A merge or rekey was begun on this target with other inputs (other sources, another order,
 * other policies, another node id). Resuming with these would end where no uninterrupted run
 * ends, so nothing is done. `expected` is what the first run recorded.
 *
 * @example
 * await runMerge({ ...inputs, sources: [...inputs.sources].reverse() }); // resuming with the sources swapped
 * // MergeInputsChangedError: this target holds a merge begun with other inputs; finish it with the same ones, or start on a fresh target.
 * //   begun with: ...
 * //   received:   ...
 */
export class MergeInputsChangedError extends SnowkeyError {
  override readonly code: string = 'SNOWKEY_MERGE_INPUTS_CHANGED';
  readonly expected: string;
  readonly received: string;
  constructor(job: string, expected: string, received: string) {
    super(
      `this target holds a ${job} begun with other inputs; finish it with the same ones, or undo it with \`snowkey ${job} reset\` (resetMerge / resetRekey) and start again.\n  begun with: ${expected}\n  received:   ${received}`,
    );
    this.expected = expected;
    this.received = received;
  }
}

/**
 * The driver for a database URL is not installed (`pg`, `mysql2` or `better-sqlite3`, optional
 * peer dependencies).
 *
 * @example
 * try { await openDatabase('postgres://postgres@127.0.0.1:5432/game_s1'); } catch (err) {
 *   // MissingDriverError: postgres:// URLs need the "pg" package: npm install pg
 *   if (err instanceof MissingDriverError) console.error(`npm install ${err.driver}`); // 'pg'
 * }
 */
export class MissingDriverError extends SnowkeyError {
  override readonly code: string = 'SNOWKEY_MISSING_DRIVER';
  readonly driver: string;
  constructor(driver: string, scheme: string, cause: unknown) {
    super(`${scheme} URLs need the "${driver}" package: npm install ${driver}`, { cause });
    this.driver = driver;
  }
}

/**
 * A foreign-key value of the source that no row of the referenced table holds (a database with
 * foreign keys off lets one in): a re-key cannot know what it should point at. Nothing of the
 * batch was written.
 *
 * @example
 * try { await runRekey({ source, target, layout: layouts.gameServer, node: { serverId: 3 } }); } catch (err) {
 *   // DanglingReferenceError: mail.item_id = 77 of the source refers to no row of items
 *   if (err instanceof DanglingReferenceError) console.error(err.table, err.column, err.value, err.refTable);
 * }
 */
export class DanglingReferenceError extends SnowkeyError {
  override readonly code: string = 'SNOWKEY_DANGLING_REFERENCE';
  readonly table: string;
  readonly column: string;
  readonly value: unknown;
  readonly refTable: string;
  constructor(table: string, column: string, value: unknown, refTable: string) {
    super(`${table}.${column} = ${String(value)} of the source refers to no row of ${refTable}`);
    this.table = table;
    this.column = column;
    this.value = value;
    this.refTable = refTable;
  }
}

/**
 * A database named by a URL does not exist: a SQLite file that is not there (it is never created),
 * a PostgreSQL or MySQL database the server does not have. Nothing was written anywhere.
 *
 * @example
 * try { await openDatabase('file:/srv/game/s3.sqlite'); } catch (err) {
 *   // DatabaseNotFoundError: file:/srv/game/s3.sqlite: the SQLite file /srv/game/s3.sqlite does not exist
 *   if (err instanceof DatabaseNotFoundError) console.error(err.url);
 * }
 */
export class DatabaseNotFoundError extends SnowkeyError {
  override readonly code: string = 'SNOWKEY_DATABASE_NOT_FOUND';
  /** The URL, without its password. */
  readonly url: string;
  constructor(url: string, reason: string, cause?: unknown) {
    super(`${url}: ${reason}`, { cause });
    this.url = url;
  }
}

/**
 * A key that snowkey ids cannot stand for: a value of a key column (or of a foreign key that points
 * at one) that is not an integer, has a fraction, or lies outside -2^63..2^63-1 (SQLite lets `'x7'`
 * or `2.5` into a BIGINT column). Found before anything is written.
 *
 * @example
 * try { await runRekey({ source, target, layout: layouts.gameServer, node: { serverId: 3 } }); } catch (err) {
 *   // InvalidKeyError: accounts.id of game_s3 holds "x7": keys must be integers in -2^63..2^63-1
 *   if (err instanceof InvalidKeyError) console.error(err.table, err.column, err.value);
 * }
 */
export class InvalidKeyError extends SnowkeyError {
  override readonly code: string = 'SNOWKEY_INVALID_KEY';
  readonly table: string;
  readonly column: string;
  readonly value: unknown;
  /** The source's label or database name. */
  readonly source: string;
  constructor(table: string, column: string, value: unknown, source: string) {
    const shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
    super(
      `${table}.${column} of ${source} holds ${shown}: keys must be integers in -2^63..2^63-1 (fix the row, or exclude the table)`,
    );
    this.table = table;
    this.column = column;
    this.value = value;
    this.source = source;
  }
}

/**
 * `snowkey adopt` will not switch a table: no single integer primary key, keys at or above the
 * first id the layout can issue, or a database-side generator that is not installed. Nothing was
 * changed; `refused` names each table and why.
 *
 * @example
 * // AdoptRefusedError: adopt refused, nothing changed: logs: it has no primary key
 */
export class AdoptRefusedError extends SnowkeyError {
  override readonly code: string = 'SNOWKEY_ADOPT_REFUSED';
  readonly refused: readonly { table: string; reason: string }[];
  constructor(refused: readonly { table: string; reason: string }[]) {
    super(`adopt refused, nothing changed: ${refused.map((r) => `${r.table}: ${r.reason}`).join('; ')}`);
    this.refused = refused;
  }
}
