import { InvalidArgumentError } from '@snowkey/core';
import type { Knex } from 'knex';
import type { Row } from './fill-ids.js';
import { PendingInsert } from './pending-insert.js';
import { readBackIds } from './read-back-ids.js';
import { runInTransaction } from './transaction.js';

/** What to do with a row whose conflict columns match an existing row. */
type ConflictAction =
  | { readonly kind: 'ignore' }
  /** `undefined`: every inserted column except the id and conflict columns. */
  | { readonly kind: 'merge'; readonly updates: readonly string[] | Row | undefined };

interface Conflict {
  readonly columns: readonly string[];
  readonly action: ConflictAction;
}

/** Where an insert goes and on which connection. */
export interface InsertTarget {
  readonly knex: Knex;
  readonly table: string;
  readonly idColumns: readonly string[];
  /** The rows are the caller's own objects (`fillInPlace`): ids read back go into them too. */
  readonly inPlace: boolean;
}

/** An INSERT whose ids are assigned (`rows`) before it runs on the first `await`. */
export class SnowkeyInsert<Out> extends PendingInsert<Out> {
  readonly #target: InsertTarget;
  // Mutable, as on a Knex builder: `q.onConflict(c).merge(); await q;` must upsert.
  #conflict: Conflict | undefined;

  /** @internal Built by `sk.insert`. */
  constructor(target: InsertTarget, rows: readonly Row[]) {
    super(rows);
    this.#target = target;
  }

  /**
   * Starts an upsert on the unique `columns`, by which each row's stored id is read back.
   *
   * @example
   * const [item] = await sk.insert('items', { name: 'sword', qty: 2 }).onConflict('name').merge(['qty']);
   */
  onConflict(columns: string | readonly string[]): SnowkeyOnConflict<Out> {
    const list = typeof columns === 'string' ? [columns] : columns;
    if (
      !Array.isArray(list) ||
      list.length === 0 ||
      !list.every((c) => typeof c === 'string' && c.length > 0)
    ) {
      throw new InvalidArgumentError(
        'onConflict(columns)',
        'a column name or a non-empty array of column names of a unique key',
        columns,
      );
    }
    return new SnowkeyOnConflict((action) => {
      this.#conflict = { columns: list, action };
      return this;
    });
  }

  /** The SQL and bindings the INSERT runs (an upsert also runs a SELECT that reads the stored ids). */
  toSQL(): Knex.Sql {
    return this.#builder(this.transaction ?? this.#target.knex).toSQL();
  }

  protected execute(): Promise<readonly Row[]> {
    const { knex, table, idColumns, inPlace } = this.#target;
    const conflict = this.#conflict;
    if (!conflict) return this.#builder(this.transaction ?? knex).then(() => this.filledRows);
    // The INSERT and the read-back share a transaction, so the ids read are the ones it stored.
    return runInTransaction(knex, this.transaction, async (trx) => {
      await this.#builder(trx);
      return readBackIds(trx, table, idColumns, conflict.columns, this.filledRows, inPlace);
    });
  }

  #builder(knex: Knex): Knex.QueryBuilder {
    const { table, idColumns } = this.#target;
    const insert = knex(table).insert(this.filledRows as Row[]);
    const conflict = this.#conflict;
    if (!conflict) return insert;
    const onConflict = insert.onConflict(conflict.columns as string[]);
    if (conflict.action.kind === 'ignore') return onConflict.ignore();
    const updates =
      conflict.action.updates ?? defaultMergeColumns(this.filledRows, idColumns, conflict.columns);
    // Nothing left to update: merging would be empty SQL, and ignoring has the same effect.
    if (Array.isArray(updates) && updates.length === 0) return onConflict.ignore();
    return onConflict.merge(updates as string[]);
  }
}

/** The second half of an upsert, as in Knex: `.merge()` or `.ignore()`. */
export class SnowkeyOnConflict<Out> {
  readonly #finish: (action: ConflictAction) => SnowkeyInsert<Out>;

  /** @internal Built by `SnowkeyInsert.onConflict`. */
  constructor(finish: (action: ConflictAction) => SnowkeyInsert<Out>) {
    this.#finish = finish;
  }

  /**
   * Updates the existing row: by default every inserted column but the ids and conflict columns,
   * since Knex's own `.merge()` would rewrite a primary key other rows may point at.
   */
  merge(updates?: readonly string[] | Row): SnowkeyInsert<Out> {
    if (updates !== undefined && (updates === null || typeof updates !== 'object')) {
      throw new InvalidArgumentError(
        'merge(updates)',
        'an array of column names or an object of values',
        updates,
      );
    }
    return this.#finish({ kind: 'merge', updates });
  }

  /** Leaves the existing row alone; the result carries its id. */
  ignore(): SnowkeyInsert<Out> {
    return this.#finish({ kind: 'ignore' });
  }
}

function defaultMergeColumns(
  rows: readonly Row[],
  idColumns: readonly string[],
  conflictColumns: readonly string[],
): string[] {
  const skip = new Set([...idColumns, ...conflictColumns]);
  const columns = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) if (!skip.has(key)) columns.add(key);
  return [...columns];
}
