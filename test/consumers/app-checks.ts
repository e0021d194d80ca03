import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { launchChromium } from '../browser/chromium.js';
import { serveStatic } from '../browser/static-server.js';
import {
  createTestDatabase,
  type Dialect,
  type DroppableTestDatabase,
} from '../helpers/create-test-database.js';
import { binPath, runApp, runBin, typecheck } from './run-app.js';

/** Every id a snowflake generator hands out today is above 2^53: a rounded one would show. */
const ABOVE_2_53 = (id: string) => BigInt(id) > 2n ** 53n;

const PLAYERS_ITEMS = [
  'CREATE TABLE players (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(100) NOT NULL UNIQUE, level INT NOT NULL DEFAULT 1)',
  'CREATE TABLE items (id BIGINT NOT NULL PRIMARY KEY, serial_no BIGINT NOT NULL UNIQUE, label VARCHAR(100) NOT NULL)',
];
const PLAYERS_OWNED_ITEMS = [
  'CREATE TABLE players (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(100) NOT NULL UNIQUE, level INT NOT NULL)',
  'CREATE TABLE items (id BIGINT NOT NULL PRIMARY KEY, owner_id BIGINT NOT NULL REFERENCES players (id), kind VARCHAR(100) NOT NULL)',
];
const GUILDS_PLAYERS = [
  'CREATE TABLE guilds (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(100) NOT NULL)',
  'CREATE TABLE players (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(100) NOT NULL, guild_id BIGINT NULL, FOREIGN KEY (guild_id) REFERENCES guilds (id))',
];
const PLAYERS_MATCHES_REPLAYS = [
  'CREATE TABLE players (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(100) NOT NULL)',
  'CREATE TABLE matches (id BIGINT NOT NULL PRIMARY KEY, player_id BIGINT NOT NULL REFERENCES players (id))',
  'CREATE TABLE replays (id BIGINT NOT NULL PRIMARY KEY, share_id BIGINT NOT NULL UNIQUE, match_id BIGINT NOT NULL REFERENCES matches (id))',
];

/** A fresh database with `tables`, the app run against it, then `check` on the rows; dropped after. */
async function runAgainst<T>(
  dir: string,
  dialect: Dialect,
  tables: readonly string[],
  check: (db: DroppableTestDatabase, out: T) => Promise<void>,
): Promise<void> {
  const db = await createTestDatabase(dialect, `consumer ${dialect}`);
  try {
    for (const sql of tables) await db.query(sql);
    await check(db, runApp<T>(dir, { DATABASE_URL: db.url }));
  } finally {
    await db.drop();
  }
}

interface PlayersItems {
  players: Record<string, string>;
  items: Record<string, [string, string]>;
  readBack: boolean;
}

async function playersAndItems(dir: string): Promise<void> {
  typecheck(dir);
  await runAgainst<PlayersItems>(dir, 'postgres', PLAYERS_ITEMS, async (db, out) => {
    expect(await db.query('SELECT id, name FROM players ORDER BY name')).toEqual([
      { id: out.players.Aria, name: 'Aria' },
      { id: '42', name: 'Imported' },
    ]);
    expect(await db.query('SELECT id, serial_no, label FROM items ORDER BY label')).toEqual([
      { id: out.items.shield![0], serial_no: out.items.shield![1], label: 'shield' },
      { id: out.items.sword![0], serial_no: out.items.sword![1], label: 'sword' },
    ]);
    expect([out.players.Aria!, ...Object.values(out.items).flat()].every(ABOVE_2_53)).toBe(true);
    expect(out.readBack).toBe(true);
  });
}

interface GuildPlayers {
  guild: string;
  players: Record<string, string>;
  readBack: boolean;
}

/**
 * What each app template is checked for, once installed: typecheck with the app's own `tsc`, run
 * against a fresh database, then the rows read back with raw SQL (the harness's own driver).
 */
export const APP_CHECKS: Record<string, (dir: string) => Promise<void>> = {
  'knex-pg': playersAndItems,
  'kysely-pg': playersAndItems,

  async 'drizzle-sqlite'(dir) {
    typecheck(dir);
    await runAgainst<{ players: Record<string, string>; items: Record<string, string>; readBack: boolean }>(
      dir,
      'sqlite',
      PLAYERS_OWNED_ITEMS,
      async (db, out) => {
        expect(await db.query('SELECT id, name, level FROM players ORDER BY name')).toEqual([
          { id: out.players.Aria, name: 'Aria', level: 1 },
          { id: '42', name: 'Imported', level: 9 },
        ]);
        expect(await db.query('SELECT id, owner_id, kind FROM items ORDER BY kind')).toEqual([
          { id: out.items.shield, owner_id: out.players.Aria, kind: 'shield' },
          { id: out.items.sword, owner_id: out.players.Aria, kind: 'sword' },
        ]);
        expect([out.players.Aria!, out.items.shield!, out.items.sword!].every(ABOVE_2_53)).toBe(true);
        expect(out.readBack).toBe(true);
      },
    );
  },

  async 'sequelize-mysql'(dir) {
    typecheck(dir);
    await runAgainst<GuildPlayers>(dir, 'mysql', GUILDS_PLAYERS, async (db, out) => {
      expect(await db.query('SELECT id, name FROM guilds')).toEqual([{ id: out.guild, name: 'Owls' }]);
      expect(await db.query('SELECT id, guild_id, name FROM players ORDER BY name')).toEqual([
        { id: out.players.Aria, guild_id: out.guild, name: 'Aria' },
        { id: '42', guild_id: null, name: 'Imported' },
      ]);
      expect([out.guild, out.players.Aria!].every(ABOVE_2_53)).toBe(true);
      expect(out.readBack).toBe(true);
    });
  },

  async 'prisma-pg'(dir) {
    // Prisma 7's generate needs no engine, but its CLI wants PRISMA_SCHEMA_ENGINE_BINARY to name a
    // file. It starts @snowkey/prisma's generator by its command, found on the PATH npx would set.
    runBin(dir, 'prisma', 'prisma', ['generate'], {
      PATH: binPath(dir),
      PRISMA_SCHEMA_ENGINE_BINARY: process.execPath,
      PRISMA_HIDE_UPDATE_MESSAGE: '1',
      CHECKPOINT_DISABLE: '1',
    });
    typecheck(dir);
    await runAgainst<{
      player: string;
      match: string;
      replay: [string, string];
      nested: { match: string; replay: [string, string] };
      fallbackPlayer: string;
      nodeId: number;
      readBack: boolean;
    }>(dir, 'postgres', PLAYERS_MATCHES_REPLAYS, async (db, out) => {
      expect(await db.query('SELECT id, name FROM players ORDER BY name')).toEqual([
        { id: out.player, name: 'Aria' },
        { id: out.fallbackPlayer, name: 'Bea' },
      ]);
      expect(await db.query('SELECT id, player_id FROM matches ORDER BY id')).toEqual([
        { id: out.match, player_id: out.player },
        { id: out.nested.match, player_id: out.player },
      ]);
      expect(await db.query('SELECT id, share_id, match_id FROM replays ORDER BY id')).toEqual([
        { id: out.replay[0], share_id: out.replay[1], match_id: out.match },
        { id: out.nested.replay[0], share_id: out.nested.replay[1], match_id: out.nested.match },
      ]);
      // The generator's data model says the replay holds the key: the match Prisma inserts first,
      // created inside the replay's create, got the smaller id.
      expect(BigInt(out.nested.match) < BigInt(out.nested.replay[0])).toBe(true);
      // The node id was leased through the same Prisma client, in the same database.
      expect(await db.query('SELECT node_id FROM snowkey_node_leases')).toEqual([{ node_id: out.nodeId }]);
      const ids = [
        out.player,
        out.match,
        ...out.replay,
        out.nested.match,
        ...out.nested.replay,
        out.fallbackPlayer,
      ];
      expect(ids.every(ABOVE_2_53)).toBe(true);
      expect(out.readBack).toBe(true);
    });
  },

  async 'nest-typeorm-mariadb'(dir) {
    typecheck(dir);
    await runAgainst<GuildPlayers & { nodeId: number }>(dir, 'mysql', GUILDS_PLAYERS, async (db, out) => {
      expect(await db.query('SELECT id, name FROM guilds')).toEqual([{ id: out.guild, name: 'Owls' }]);
      expect(await db.query('SELECT id, guild_id, name FROM players ORDER BY name')).toEqual([
        { id: out.players.Aria, guild_id: out.guild, name: 'Aria' },
        { id: out.players.Bo, guild_id: out.guild, name: 'Bo' },
      ]);
      // SnowkeyModule leased the node id through TypeORM's DataSource, in the same database.
      expect(await db.query('SELECT node_id FROM snowkey_node_leases')).toEqual([{ node_id: out.nodeId }]);
      expect([out.guild, out.players.Aria!, out.players.Bo!].every(ABOVE_2_53)).toBe(true);
      expect(out.readBack).toBe(true);
    });
  },

  async 'vite-browser'(dir) {
    typecheck(dir);
    runBin(dir, 'vite', 'vite', ['build', '--logLevel', 'error']);
    const dist = join(dir, 'dist');
    const scripts = readdirSync(dist).filter((f) => f.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const file of scripts) {
      const code = readFileSync(join(dist, file), 'utf8');
      expect(code).not.toMatch(/["'`]node:/);
      expect(code).not.toMatch(/\brequire\(/);
    }
    const server = await serveStatic({ app: dist });
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));
      await page.goto(new URL('app/index.html', server.url).href);
      const raw = await page.waitForFunction('document.body.dataset.result');
      const result = JSON.parse(String(await raw.jsonValue())) as Record<string, unknown>;
      expect(errors).toEqual([]);
      expect(result).toMatchObject({
        count: 1000,
        distinct: 1000,
        ascending: true,
        roundTrip: true,
        workerId: 7,
        datacenterId: 3,
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
};
