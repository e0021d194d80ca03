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
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(`the schema cannot be merged as it is:\n  - ${problems.join('\n  - ')}`);
    this.problems = problems;
  }
}

/**
 * A source row met a conflict whose policy is `fail`: its primary key is already held by another
 * row of the target (`constraint` is `PRIMARY KEY`), or a value of a unique constraint is. The
 * batch it was in rolled back; the rows before it stay, with their progress, so a rerun after the
 * conflict is dealt with goes on from there.
 *
 * @example
 * try { await runMerge(inputs); } catch (err) {
 *   // MergeConflictError: players.name = "Aria" from S2 (key [7]) is already held by another row of the target (policy fail); ...
 *   if (err instanceof MergeConflictError) console.error(err.table, err.constraint, err.source, err.key, err.value);
 * }
 */
export class MergeConflictError extends SnowkeyError {
  readonly table: string;
  readonly constraint: string;
  readonly source: string;
  readonly key: readonly unknown[];
  readonly value: readonly unknown[];
  constructor(args: {
    table: string;
    constraint: string;
    source: string;
    key: readonly unknown[];
    value: readonly unknown[];
    hint: string;
  }) {
    const shown = args.value.map((v) => (typeof v === 'string' ? JSON.stringify(v) : String(v))).join(', ');
    super(
      `${args.table}.${args.constraint} = ${shown} from ${args.source} (key [${args.key.map(String).join(', ')}]) is already held by another row of the target (policy fail); ${args.hint}`,
    );
    this.table = args.table;
    this.constraint = args.constraint;
    this.source = args.source;
    this.key = args.key;
    this.value = args.value;
  }
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
  readonly expected: string;
  readonly received: string;
  constructor(job: string, expected: string, received: string) {
    super(
      `this target holds a ${job} begun with other inputs; finish it with the same ones, or start on a fresh target.\n  begun with: ${expected}\n  received:   ${received}`,
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
