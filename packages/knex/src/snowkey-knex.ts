import { InvalidArgumentError, type SqlDialect } from '@snowkey/core';
import { takeId } from '@snowkey/core/adapter';
import type { Knex } from 'knex';
import { SnowkeyBatchInsert } from './batch-insert.js';
import { knexDialect } from './dialect.js';
import { fillIds, type Row } from './fill-ids.js';
import { SnowkeyInsert } from './insert-query.js';
import {
  type ResolvedOptions,
  resolveOptions,
  type SnowflakeTables,
  type SnowkeyKnexOptions,
} from './options.js';
import { assertKnexVersion } from './peer-version.js';

/** The snowflake columns configured for `Table`; `string` when the tables are not known statically. */
export type IdColumnsOf<
  Tables extends SnowflakeTables,
  Table extends keyof Tables,
> = Tables[Table] extends string
  ? Tables[Table]
  : Tables[Table] extends readonly (infer C extends string)[]
    ? C
    : never;

/** A row you pass in: the snowflake columns may be left out (they are filled) or set to a bigint (kept). */
export type InsertRow<Columns extends string> = string extends Columns
  ? object
  : object & { [C in Columns]?: bigint | null };

/** A row as it comes back: every snowflake column is a bigint. */
export type InsertedRow<R, Columns extends string> = string extends Columns
  ? R
  : Omit<R, Columns> & { [C in Columns]: bigint };

/** Knex's default `batchInsert` chunk size. */
const DEFAULT_CHUNK_SIZE = 1000;
/** Knex writes a multi-row INSERT on SQLite as a compound SELECT, which SQLite caps at 500 terms. */
const SQLITE_MAX_ROWS = 500;

/** Assigns snowflake ids to the rows you insert through Knex; built by {@link snowkeyKnex}. */
export class SnowkeyKnex<Tables extends SnowflakeTables = SnowflakeTables> {
  /** The Knex instance or transaction the helper runs on. */
  readonly knex: Knex;
  /** Its SQL family. */
  readonly dialect: SqlDialect;
  readonly #options: ResolvedOptions;

  /** @internal Use {@link snowkeyKnex}. */
  constructor(knex: Knex, options: ResolvedOptions) {
    this.dialect = knexDialect(knex);
    this.knex = knex;
    this.#options = options;
  }

  /**
   * `knex(table).insert(rows)` with each missing snowflake column filled; resolves to the rows.
   *
   * @example
   * const [aria, bo] = await sk.insert('players', [{ name: 'Aria' }, { name: 'Bo' }]);
   */
  insert<Table extends keyof Tables & string, R extends InsertRow<IdColumnsOf<Tables, Table>>>(
    table: Table,
    rows: R | readonly R[],
  ): SnowkeyInsert<InsertedRow<R, IdColumnsOf<Tables, Table>>> {
    const idColumns = this.#idColumns(table);
    if (this.dialect === 'sqlite' && Array.isArray(rows) && rows.length > SQLITE_MAX_ROWS) {
      throw new InvalidArgumentError(
        'rows',
        `at most ${SQLITE_MAX_ROWS} rows in one insert on SQLite (Knex writes them as one compound SELECT); use batchInsert`,
        rows,
      );
    }
    return new SnowkeyInsert(
      { knex: this.knex, table, idColumns, inPlace: this.#options.fillInPlace },
      this.#fill(table, idColumns, rows),
    );
  }

  /**
   * Knex's `batchInsert` with ids; `chunkSize` defaults to 1000, and to 500 on SQLite, which caps
   * the compound SELECT Knex writes at 500 terms.
   *
   * @example
   * const items = await sk.batchInsert('items', rows, 500);
   */
  batchInsert<Table extends keyof Tables & string, R extends InsertRow<IdColumnsOf<Tables, Table>>>(
    table: Table,
    rows: readonly R[],
    chunkSize: number = this.dialect === 'sqlite' ? SQLITE_MAX_ROWS : DEFAULT_CHUNK_SIZE,
  ): SnowkeyBatchInsert<InsertedRow<R, IdColumnsOf<Tables, Table>>> {
    const maxChunk = this.dialect === 'sqlite' ? SQLITE_MAX_ROWS : Number.MAX_SAFE_INTEGER;
    if (!Number.isSafeInteger(chunkSize) || chunkSize < 1 || chunkSize > maxChunk) {
      const expected =
        this.dialect === 'sqlite' ? `an integer in 1..${SQLITE_MAX_ROWS} on SQLite` : 'a positive integer';
      throw new InvalidArgumentError('chunkSize', expected, chunkSize);
    }
    if (!Array.isArray(rows)) throw new InvalidArgumentError('rows', 'an array of row objects', rows);
    const idColumns = this.#idColumns(table);
    return new SnowkeyBatchInsert(
      { knex: this.knex, table, idColumns, inPlace: this.#options.fillInPlace },
      this.#fill(table, idColumns, rows),
      chunkSize,
    );
  }

  /**
   * The rows with their missing ids filled, for Knex calls the helper does not wrap.
   *
   * @example
   * await db('players').insert(sk.fill('players', rows)).returning('*');
   */
  fill<Table extends keyof Tables & string, R extends InsertRow<IdColumnsOf<Tables, Table>>>(
    table: Table,
    rows: R | readonly R[],
  ): InsertedRow<R, IdColumnsOf<Tables, Table>>[] {
    return this.#fill(table, this.#idColumns(table), rows) as InsertedRow<R, IdColumnsOf<Tables, Table>>[];
  }

  /**
   * Runs `work` in a new Knex transaction with a helper bound to it, as `knex.transaction(cb)` does.
   *
   * @example
   * await sk.transaction(async (tx) => {
   *   const [guild] = await tx.insert('guilds', { name: 'Owls' });
   *   await tx.insert('members', { guild_id: guild.id, name: 'Aria' });
   * });
   */
  transaction<T>(work: (tx: SnowkeyKnex<Tables>) => Promise<T>): Promise<T> {
    return this.knex.transaction((trx) => work(this.transacting(trx)));
  }

  /**
   * The same helper running on `trx`, for a transaction you opened yourself.
   *
   * @example
   * await db.transaction(async (trx) => {
   *   await sk.transacting(trx).insert('players', { name: 'Aria' });
   *   await trx('audit').insert({ event: 'signup' });
   * });
   */
  transacting(trx: Knex.Transaction): SnowkeyKnex<Tables> {
    if (typeof trx !== 'function' || !trx.isTransaction) {
      throw new InvalidArgumentError('trx', 'a Knex transaction (from knex.transaction())', trx);
    }
    return new SnowkeyKnex<Tables>(trx, this.#options);
  }

  /** One id from the generator, for when you need it before building the row. */
  nextId(): bigint {
    return takeId(this.#options.generator);
  }

  #idColumns(table: string): readonly string[] {
    const columns = this.#options.tables.get(table);
    if (!columns) {
      const known = [...this.#options.tables.keys()].map((t) => JSON.stringify(t)).join(', ');
      throw new InvalidArgumentError('table', `a table given in the "tables" option: ${known}`, table);
    }
    return columns;
  }

  #fill(table: string, idColumns: readonly string[], rows: unknown): Row[] {
    const { generator, fillInPlace, copiers } = this.#options;
    return fillIds(generator, idColumns, rows, fillInPlace ? undefined : copiers.get(table));
  }
}

/**
 * Builds the helper that fills the snowflake columns of `tables` in every insert through it; the
 * options are checked here, at start-up.
 *
 * @example
 * import { Snowflake } from '@snowkey/core';
 * import { snowkeyKnex } from '@snowkey/knex';
 *
 * const sk = snowkeyKnex(db, {
 *   generator: new Snowflake({ workerId: 1 }),
 *   tables: { players: 'id', items: ['id', 'serial_no'] },
 * });
 * const [sword] = await sk.insert('items', { name: 'sword' }); // sword.id, sword.serial_no: bigint
 */
export function snowkeyKnex<const Tables extends SnowflakeTables>(
  knex: Knex,
  options: SnowkeyKnexOptions<Tables>,
): SnowkeyKnex<Tables> {
  assertKnexVersion();
  knexDialect(knex);
  return new SnowkeyKnex<Tables>(knex, resolveOptions(options));
}
