import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium } from '../browser/chromium.js';
import { serveStatic } from '../browser/static-server.js';
import { createTestDatabase } from '../helpers/create-test-database.js';
import { runApp, runBin, typecheck } from './run-app.js';
import { ensureTarballs } from './tarballs.js';
import { type AppSpec, installWorkspace, type Workspace } from './workspace.js';

const APPS: AppSpec[] = [
  { name: 'knex-pg', template: 'knex-pg' },
  { name: 'drizzle-sqlite', template: 'drizzle-sqlite' },
  { name: 'vite-browser', template: 'vite-browser' },
];

const PLAYERS_ITEMS = [
  'CREATE TABLE players (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(100) NOT NULL UNIQUE, level INT NOT NULL DEFAULT 1)',
  'CREATE TABLE items (id BIGINT NOT NULL PRIMARY KEY, serial_no BIGINT NOT NULL UNIQUE, label VARCHAR(100) NOT NULL)',
];

/** Every id a snowflake generator hands out today is above 2^53: a rounded one would show. */
const ABOVE_2_53 = (id: string) => BigInt(id) > 2n ** 53n;

let ws: Workspace;
beforeAll(() => {
  ws = installWorkspace(APPS, ensureTarballs());
}, 300_000);
afterAll(() => ws?.remove());

describe('consumer apps installed from the packed tarballs', () => {
  test('GIVEN Knex 3 + pg in a CommonJS app (node10) THEN it typechecks, and the rows hold the ids it reports', async () => {
    const dir = ws.dir('knex-pg');
    expect(ws.loadedVersion('knex-pg', '@snowkey/knex', 'knex')).toBe('3.3.0');
    typecheck(dir);
    const db = await createTestDatabase('postgres', 'consumer knex');
    try {
      for (const sql of PLAYERS_ITEMS) await db.query(sql);
      const out = runApp<{
        players: Record<string, string>;
        items: Record<string, [string, string]>;
        readBack: boolean;
      }>(dir, { DATABASE_URL: db.url });
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
    } finally {
      await db.drop();
    }
  });

  test('GIVEN Drizzle + better-sqlite3 in an ESM app (nodenext) THEN it typechecks, and the rows hold the ids it reports', async () => {
    const dir = ws.dir('drizzle-sqlite');
    expect(ws.loadedVersion('drizzle-sqlite', '@snowkey/drizzle', 'drizzle-orm')).toBe('0.45.4');
    typecheck(dir);
    const db = await createTestDatabase('sqlite', 'consumer drizzle');
    try {
      await db.query(
        'CREATE TABLE players (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(100) NOT NULL UNIQUE, level INT NOT NULL)',
      );
      await db.query(
        'CREATE TABLE items (id BIGINT NOT NULL PRIMARY KEY, owner_id BIGINT NOT NULL REFERENCES players (id), kind VARCHAR(100) NOT NULL)',
      );
      const out = runApp<{
        players: Record<string, string>;
        items: Record<string, string>;
        readBack: boolean;
      }>(dir, { DATABASE_URL: db.url });
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
    } finally {
      await db.drop();
    }
  });

  test('GIVEN @snowkey/core bundled by Vite for the browser THEN the bundle has no Node built-in and generates ids in Chromium', async () => {
    const dir = ws.dir('vite-browser');
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
      expect(Math.abs((result.timestamp as number) - Date.now())).toBeLessThan(10 * 60_000);
    } finally {
      await browser.close();
      await server.close();
    }
  });
});
