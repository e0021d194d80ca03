import { type DatabaseRef, openDatabase } from './database.js';
import { createFreshDatabase, type DatabaseHost } from './database-host.js';
import { createGameSchema, type KeyScheme } from './schema-sql.js';

/** One game server's database. */
export interface Shard {
  readonly serverId: number;
  readonly ref: DatabaseRef;
  /** `S1`, `S2`, ... */
  readonly label: string;
}

/**
 * Creates an empty game database on `host` named `<prefix>_<name>` with the game tables.
 *
 * @example
 * const merged = await createGameDatabase(host, 'snowkey_demo', 'merged');
 */
export async function createGameDatabase(
  host: DatabaseHost,
  prefix: string,
  name: string,
  keys: KeyScheme = 'snowflake',
): Promise<DatabaseRef> {
  const ref = await createFreshDatabase(host, `${prefix}_${name}`);
  const db = openDatabase(ref);
  try {
    await createGameSchema(db, ref.dialect, keys);
  } finally {
    await db.destroy();
  }
  return ref;
}

/**
 * Creates one game database per server id (`<prefix>_s1`, `<prefix>_s2`, ...).
 *
 * @example
 * const shards = await createShards({ dialect: 'sqlite', dir: '.tmp/demo' }, 'snowkey_demo', [1, 2]);
 * shards.map((s) => s.label); // ['S1', 'S2']
 */
export async function createShards(
  host: DatabaseHost,
  prefix: string,
  serverIds: readonly number[],
  keys: KeyScheme = 'snowflake',
): Promise<Shard[]> {
  const shards: Shard[] = [];
  for (const serverId of serverIds) {
    shards.push({
      serverId,
      label: `S${serverId}`,
      ref: await createGameDatabase(host, prefix, `s${serverId}`, keys),
    });
  }
  return shards;
}
