import type { SqlParam } from '@snowkey/core';
import { InvalidArgumentError, type SqlClient, type SqlDialect } from '@snowkey/core';
import { SQL_DIALECTS, toPostgresPlaceholders } from '@snowkey/core/adapter';
import { readActiveProvider } from './prisma-internals.js';

/**
 * What {@link prismaSqlClient} needs of a Prisma client: its raw-SQL methods, interactive
 * `$transaction` and `$connect` (a client or an extended client; the `tx` of an interactive
 * transaction has no `$connect`).
 *
 * @example
 * const raw: PrismaRawQueryable = new PrismaClient({ adapter });
 */
export interface PrismaRawQueryable {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): PromiseLike<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): PromiseLike<number>;
  $transaction<R>(
    fn: (tx: Pick<PrismaRawQueryable, '$queryRawUnsafe' | '$executeRawUnsafe'>) => PromiseLike<R>,
  ): PromiseLike<R>;
  $connect(): PromiseLike<void>;
}

/** Prisma's provider names, as a generated client reports them, to snowkey's dialects. */
const PROVIDERS: Readonly<Record<string, SqlDialect>> = {
  postgresql: 'postgres',
  postgres: 'postgres',
  mysql: 'mysql',
  sqlite: 'sqlite',
};

/**
 * A core `SqlClient` over the application's own Prisma client, through `$queryRawUnsafe` and
 * `$executeRawUnsafe` (parameters are always bound, never spliced in), so worker-id leases and the
 * segment allocator use the connection the application already has. The dialect is read from the
 * client (`postgresql`, `mysql`, `sqlite`); pass `dialect` to name it yourself.
 *
 * Each statement runs on its own, never inside a transaction the application has open: on
 * PostgreSQL and MySQL it takes its own connection from the pool. On SQLite Prisma has one
 * connection and runs a raw statement on it even while an interactive transaction is open there,
 * so each statement runs in an interactive `$transaction` of its own, which waits until that
 * transaction ends (at most Prisma's `maxWait`). The `tx` of a transaction is refused: a lease
 * outlives any transaction.
 *
 * @example
 * import { layouts, leaseNodeId, Snowflake } from '@snowkey/core';
 * import { prismaSqlClient, snowkey } from '@snowkey/prisma';
 *
 * const base = new PrismaClient({ adapter });
 * const lease = await leaseNodeId({ client: prismaSqlClient(base), layout: layouts.default });
 * const prisma = base.$extends(snowkey({ generator: new Snowflake({ lease }), models: { Player: 'id' } }));
 */
export function prismaSqlClient(
  prisma: PrismaRawQueryable,
  options: { dialect?: SqlDialect } = {},
): SqlClient {
  if (
    prisma === null ||
    typeof prisma !== 'object' ||
    typeof prisma.$queryRawUnsafe !== 'function' ||
    typeof prisma.$executeRawUnsafe !== 'function'
  ) {
    throw new InvalidArgumentError(
      'prisma',
      'a Prisma client (with $queryRawUnsafe and $executeRawUnsafe)',
      prisma,
    );
  }
  if (typeof prisma.$connect !== 'function' || typeof prisma.$transaction !== 'function') {
    throw new InvalidArgumentError(
      'prisma',
      'a Prisma client, not the `tx` of a transaction (a lease outlives any transaction)',
      'a transaction client (no $connect)',
    );
  }
  const dialect = options.dialect ?? detectDialect(prisma);
  if (!SQL_DIALECTS.includes(dialect)) {
    throw new InvalidArgumentError('options.dialect', `one of ${SQL_DIALECTS.join(', ')}`, dialect);
  }
  const text = dialect === 'postgres' ? toPostgresPlaceholders : (sql: string) => sql;
  if (dialect === 'sqlite') {
    // Starting an interactive transaction takes the driver adapter's transaction lock, so the
    // statement waits for the application's transaction to end instead of running inside it.
    return {
      dialect,
      query: async <Row>(sql: string, params: readonly SqlParam[] = []) =>
        (await prisma.$transaction((tx) => tx.$queryRawUnsafe<Row[]>(sql, ...params))) ?? [],
      execute: async (sql, params = []) =>
        Number(await prisma.$transaction((tx) => tx.$executeRawUnsafe(sql, ...params))),
    };
  }
  return {
    dialect,
    query: async <Row>(sql: string, params: readonly SqlParam[] = []) =>
      (await prisma.$queryRawUnsafe<Row[]>(text(sql), ...params)) ?? [],
    execute: async (sql, params = []) => Number(await prisma.$executeRawUnsafe(text(sql), ...params)),
  };
}

function detectDialect(prisma: PrismaRawQueryable): SqlDialect {
  const provider = readActiveProvider(prisma);
  const dialect = typeof provider === 'string' ? PROVIDERS[provider] : undefined;
  if (!dialect) {
    throw new InvalidArgumentError(
      'options.dialect',
      `one of ${SQL_DIALECTS.join(', ')} (the client does not say which database it is on)`,
      provider,
    );
  }
  return dialect;
}
