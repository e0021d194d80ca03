import type { SqlParam } from '@snowkey/core';
import { InvalidArgumentError, type SqlClient, type SqlDialect } from '@snowkey/core';
import { SQL_DIALECTS, toPostgresPlaceholders } from '@snowkey/core/adapter';
import { readActiveProvider } from './prisma-internals.js';

/** What {@link prismaSqlClient} needs of a Prisma client (not a transaction's `tx`: it has no `$connect`). */
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
 * A core `SqlClient` over the application's Prisma client, for leases and segments; each statement
 * runs on its own, never in the application's open transaction.
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
  // On SQLite Prisma has one connection and runs a raw statement on it even inside an open
  // interactive transaction, so each statement runs in a $transaction of its own, which waits for
  // that one to end (at most maxWait). PostgreSQL and MySQL take a connection of their own.
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
