import type { TestDatabase } from '@snowkey/test-harness';
import type { Knex } from 'knex';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { openKnex } from './open-knex.js';
import { clearTables, createTables } from './schema.js';

/** One player as a raw SQL read returns it (the id as the database's text). */
export interface StoredPlayer {
  id: string;
  name: string;
  qty: number;
}

/**
 * The set-up the insert tests share, for the `describeEachDialect` block it is called in: the
 * tables created once, a Knex on them (`knex()`, open from the first `beforeAll` on), the tables
 * emptied before each test, the Knex destroyed after the block; `players()` reads the players
 * table by raw SQL, in id order.
 */
export function useKnexTables(ctx: { readonly db: TestDatabase }): {
  knex: () => Knex;
  players: () => Promise<StoredPlayer[]>;
} {
  let knex: Knex | undefined;
  beforeAll(async () => {
    await createTables(ctx.db);
    knex = openKnex(ctx.db);
  });
  afterAll(async () => {
    await knex?.destroy();
  });
  beforeEach(() => clearTables(ctx.db));
  return {
    knex: () => knex!,
    players: () => ctx.db.query<StoredPlayer>('SELECT id, name, qty FROM players ORDER BY id'),
  };
}
