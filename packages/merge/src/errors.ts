import { SnowkeyError } from '@snowkey/core';

/** The schema cannot be merged or re-keyed as it is; `problems` lists every reason. Nothing was written. */
export class MergeSchemaError extends SnowkeyError {
  override name = 'MergeSchemaError';
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

/** Rows meet key or unique conflicts under the `fail` policy; nothing was written. Choose a policy. */
export class MergeConflictError extends SnowkeyError {
  override name = 'MergeConflictError';
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
 * The target holds a merge or rekey begun with other inputs; resuming with these would end where no
 * uninterrupted run ends, so nothing is done.
 */
export class MergeInputsChangedError extends SnowkeyError {
  override name = 'MergeInputsChangedError';
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

/** The driver a database URL needs (`pg`, `mysql2` or `better-sqlite3`) is not installed. */
export class MissingDriverError extends SnowkeyError {
  override name = 'MissingDriverError';
  override readonly code: string = 'SNOWKEY_MISSING_DRIVER';
  readonly driver: string;
  constructor(driver: string, scheme: string, cause: unknown) {
    super(`${scheme} URLs need the "${driver}" package: npm install ${driver}`, { cause });
    this.driver = driver;
  }
}

/** A source foreign key that points at no row, so a rekey cannot know its new value. Nothing was written. */
export class DanglingReferenceError extends SnowkeyError {
  override name = 'DanglingReferenceError';
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

/** A database named by a URL does not exist (a SQLite file is never created). Nothing was written. */
export class DatabaseNotFoundError extends SnowkeyError {
  override name = 'DatabaseNotFoundError';
  override readonly code: string = 'SNOWKEY_DATABASE_NOT_FOUND';
  /** The URL, without its password. */
  readonly url: string;
  constructor(url: string, reason: string, cause?: unknown) {
    super(`${url}: ${reason}`, { cause });
    this.url = url;
  }
}

/** A key or foreign-key value that is not an integer in -2^63..2^63-1 (SQLite lets one in). */
export class InvalidKeyError extends SnowkeyError {
  override name = 'InvalidKeyError';
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

/** Adopt will not switch a table; `refused` names each and why. Nothing was changed. */
export class AdoptRefusedError extends SnowkeyError {
  override name = 'AdoptRefusedError';
  override readonly code: string = 'SNOWKEY_ADOPT_REFUSED';
  readonly refused: readonly { table: string; reason: string }[];
  constructor(refused: readonly { table: string; reason: string }[]) {
    super(`adopt refused, nothing changed: ${refused.map((r) => `${r.table}: ${r.reason}`).join('; ')}`);
    this.refused = refused;
  }
}
