import type { SqlParam } from '@snowkey/core';
import { InvalidArgumentError, type SqlClient, type SqlDialect } from '@snowkey/core';
import { rewriteSqlPlaceholders } from '@snowkey/core/adapter';
import { QueryTypes, type Sequelize } from 'sequelize';

const DIALECTS: Readonly<Record<string, SqlDialect>> = {
  postgres: 'postgres',
  mysql: 'mysql',
  mariadb: 'mysql',
  sqlite: 'sqlite',
};
/** MySQL's own count of the rows an UPDATE matched, in the OK packet's info text. */
const ROWS_MATCHED = /Rows matched:\s*(\d+)/;

/**
 * Core's `SqlClient` over your Sequelize pool, outside any transaction (CLS too). On `mariadb` it
 * needs `dialectOptions: { foundRows: true }`: a lease renewal must count a row it leaves as it was.
 *
 * @example
 * import { layouts, leaseNodeId, Snowflake } from '@snowkey/core';
 * const lease = await leaseNodeId({ client: sequelizeSqlClient(sequelize), layout: layouts.default });
 * attachSnowflakes(sequelize, { generator: new Snowflake({ layout: layouts.default, lease }) });
 */
export function sequelizeSqlClient(sequelize: Sequelize): SqlClient {
  const name = typeof sequelize?.getDialect === 'function' ? sequelize.getDialect() : undefined;
  const dialect = name === undefined ? undefined : DIALECTS[name];
  if (!dialect) {
    throw new InvalidArgumentError(
      'sequelize',
      `a Sequelize instance whose dialect is one of ${Object.keys(DIALECTS).join(', ')}`,
      name ?? sequelize,
    );
  }
  const dialectOptions = (sequelize as unknown as { options: { dialectOptions?: { foundRows?: unknown } } })
    .options.dialectOptions;
  if (name === 'mariadb' && dialectOptions?.foundRows !== true) {
    throw new InvalidArgumentError(
      'sequelize',
      'a Sequelize instance with `dialectOptions: { foundRows: true }` on the mariadb dialect (without it an UPDATE counts only the rows it changed)',
      dialectOptions?.foundRows,
    );
  }
  const text = (sql: string) =>
    rewriteSqlPlaceholders(
      sql,
      (n) => `$${n}`,
      (quoted) => {
        // Sequelize replaces `$1` and `$name` even inside quotes, so a `$` there cannot be kept as written.
        if (quoted.includes('$')) {
          throw new InvalidArgumentError(
            'sql',
            "SQL whose quoted strings, identifiers and comments hold no '$' (Sequelize would take it for a bind parameter)",
            sql,
          );
        }
        return quoted;
      },
    );
  return {
    dialect,
    async query<Row>(sql: string, params: readonly SqlParam[] = []): Promise<Row[]> {
      return (await sequelize.query(text(sql), {
        bind: [...params],
        // Never the transaction Sequelize's CLS would pick up: a lease outlives any transaction.
        transaction: null,
        type: QueryTypes.SELECT,
        raw: true,
      })) as Row[];
    },
    async execute(sql: string, params: readonly SqlParam[] = []): Promise<number> {
      const [results, meta] = await sequelize.query(text(sql), {
        bind: [...params],
        // Never the transaction Sequelize's CLS would pick up: a lease outlives any transaction.
        transaction: null,
        type: QueryTypes.RAW,
        raw: true,
      });
      return rowCount(dialect, results, meta);
    },
  };
}

/**
 * What a statement touched. Sequelize resolves an INSERT to `[insertId, count]`; anything else to
 * `[results, driver result]`: pg's `rowCount`, SQLite's `changes`, and on MySQL the rows an UPDATE
 * matched (Sequelize connects mysql2 without CLIENT_FOUND_ROWS, so `affectedRows` counts only the
 * changed rows; the server's info text says how many matched). The mariadb dialect gives its OK
 * packet as the results.
 */
function rowCount(dialect: SqlDialect, results: unknown, meta: unknown): number {
  if (typeof meta === 'number') return meta;
  const result = (meta ?? results ?? {}) as {
    rowCount?: unknown;
    changes?: unknown;
    affectedRows?: unknown;
    info?: unknown;
  };
  if (dialect === 'postgres') return Number(result.rowCount ?? 0);
  if (dialect === 'sqlite') return Number(result.changes ?? 0);
  const matched = typeof result.info === 'string' ? ROWS_MATCHED.exec(result.info) : null;
  return Number(matched ? matched[1] : (result.affectedRows ?? 0));
}
