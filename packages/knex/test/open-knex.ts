import type { TestDatabase } from '@snowkey/test-harness';
import knex, { type Knex } from 'knex';
import { withBigintReads } from '../src/index.js';

/** Which Knex client a test uses for each dialect. */
export const KNEX_CLIENTS = { postgres: 'pg', mysql: 'mysql2', sqlite: 'better-sqlite3' } as const;

/**
 * A Knex instance on the harness's database, with BIGINT read back as bigint (`exact`, the
 * default) or with each driver's own defaults. Small pools: the machine is shared.
 */
export function openKnex(
  db: TestDatabase,
  { exact = true, client }: { exact?: boolean; client?: string } = {},
): Knex {
  const config: Knex.Config =
    db.dialect === 'sqlite'
      ? {
          client: client ?? KNEX_CLIENTS.sqlite,
          connection: { filename: db.filename! },
          useNullAsDefault: true,
        }
      : db.dialect === 'postgres'
        ? { client: client ?? KNEX_CLIENTS.postgres, connection: db.url, pool: { min: 0, max: 2 } }
        : {
            client: client ?? KNEX_CLIENTS.mysql,
            connection: client === 'mariadb' ? { ...db.connection } : db.url,
            pool: { min: 0, max: 2 },
          };
  return knex(exact ? withBigintReads(config) : config);
}
