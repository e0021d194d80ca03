import { InvalidArgumentError } from '@snowkey/core';
import { generateOrKeep, takeId, takeIds } from '@snowkey/core/adapter';
import {
  InsertQueryNode,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import { assertRowObjects, IdFillingTransformer } from './fill-insert.js';
import {
  type ResolvedOptions,
  resolveOptions,
  type SnowflakeTables,
  type SnowkeyPluginOptions,
} from './options.js';

/** The snowflake columns configured for `Table`; `string` when the tables are not known statically. */
export type IdColumnsOf<Tables, Table extends keyof Tables> = Tables[Table] extends string
  ? Tables[Table]
  : Tables[Table] extends readonly (infer C extends string)[]
    ? C
    : never;

/** A row with its snowflake columns filled: each one a bigint. */
export type WithIds<R, Columns extends string> = Omit<R, Columns> & { [C in Columns]: bigint };

/**
 * A Kysely plugin that fills each snowflake column an INSERT into a configured table leaves out, by
 * rewriting the query's operation tree, so every builder and transaction goes through it.
 */
export class SnowkeyPlugin<Tables extends SnowflakeTables = SnowflakeTables> implements KyselyPlugin {
  readonly #options: ResolvedOptions;
  readonly #filler: IdFillingTransformer;

  /** @internal Use {@link snowkeyPlugin}. */
  constructor(options: ResolvedOptions) {
    this.#options = options;
    this.#filler = new IdFillingTransformer(options);
  }

  /** Kysely calls this for every query it compiles; INSERTs (also nested in `WITH`) get their ids. */
  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    // A data-modifying WITH is the only place an INSERT can nest (PostgreSQL allows it at the top
    // level only), so only a tree with a WITH is walked; a plain INSERT is filled directly, without
    // copying every node of its rows, and a plain SELECT, UPDATE or DELETE is left as it is.
    if ((node as { with?: unknown }).with) return this.#filler.transformNode(node, queryId);
    return InsertQueryNode.is(node) ? this.#filler.fillInsert(node) : node;
  }

  /** Results pass through unchanged. */
  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }

  /**
   * Copies of `rows` with their ids filled now: how a MySQL caller, without `RETURNING`, knows them.
   *
   * @example
   * const rows = sk.withIds('players', [{ name: 'Aria' }, { name: 'Bo' }]);
   * await db.insertInto('players').values(rows).execute();
   * rows[0].id; // 175928847299117063n, stored
   */
  withIds<Table extends keyof Tables & string, R extends object>(
    table: Table,
    rows: readonly R[],
  ): WithIds<R, IdColumnsOf<Tables, Table>>[] {
    const idColumns = this.#idColumns(table);
    if (!Array.isArray(rows)) throw new InvalidArgumentError('rows', `an array of rows for "${table}"`, rows);
    assertRowObjects(table, rows);
    const copies = rows.map((row) => Object.assign({}, row) as Record<string, unknown>);
    const missing: Array<[row: Record<string, unknown>, column: string]> = [];
    copies.forEach((copy, i) => {
      for (const column of idColumns) {
        if (generateOrKeep(copy[column], () => `${table}[${i}].${column}`) === 'generate')
          missing.push([copy, column]);
      }
    });
    const ids = takeIds(this.#options.generator, missing.length);
    missing.forEach(([copy, column], k) => {
      copy[column] = ids[k];
    });
    return copies as WithIds<R, IdColumnsOf<Tables, Table>>[];
  }

  /** One id from the generator, for when you need it before building the row. */
  nextId(): bigint {
    return takeId(this.#options.generator);
  }

  /** The snowflake columns of `table`, as configured. */
  idColumns(table: keyof Tables & string): readonly string[] {
    return this.#idColumns(table);
  }

  #idColumns(table: string): readonly string[] {
    const columns = this.#options.tables.get(table);
    if (!columns) {
      const known = [...this.#options.tables.keys()].map((t) => JSON.stringify(t)).join(', ');
      throw new InvalidArgumentError('table', `a table given in the "tables" option: ${known}`, table);
    }
    return columns;
  }
}

/**
 * Builds the plugin for `plugins` of your `Kysely` instance; the options are checked here, at start-up.
 *
 * @example
 * import { Snowflake } from '@snowkey/core';
 * import { snowkeyPlugin } from '@snowkey/kysely';
 *
 * const sk = snowkeyPlugin({ generator: new Snowflake({ workerId: 1 }), tables: { players: 'id', items: ['id', 'serial_no'] } });
 * const db = new Kysely<Database>({ dialect, plugins: [sk] });
 */
export function snowkeyPlugin<const Tables extends SnowflakeTables>(
  options: SnowkeyPluginOptions<Tables>,
): SnowkeyPlugin<Tables> {
  return new SnowkeyPlugin<Tables>(resolveOptions(options));
}
