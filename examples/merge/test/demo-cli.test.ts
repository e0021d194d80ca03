import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  countsOf,
  danglingOf,
  duplicatesOf,
  foreignBornOf,
  GAME_TABLE_NAMES,
  NO_DANGLING,
  type SqlReader,
  sqliteFileReader,
} from './support/oracle.js';

const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
const SERVERS = [1, 2, 3];

/**
 * `pnpm demo`'s own entry point, run as a user runs it (small sizes, three servers so each adapter
 * plays one in its own process), then read back with the test's SQL from the SQLite files it left.
 */
describe('the demo command line, three servers on SQLite', () => {
  let dir: string;
  let out: string;
  let code: number | null;
  const readers: (SqlReader & { close(): void })[] = [];
  const open = (name: string) => {
    const r = sqliteFileReader(join(dir, `smoke_${name}.sqlite`));
    readers.push(r);
    return r;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'snowkey-demo-'));
    const args = ['--players', '12', '--writers', '2', '--shards', '3', '--dir', dir, '--prefix', 'smoke'];
    const child = spawn(
      process.execPath,
      ['--conditions=dev-source', '--import', 'tsx', 'src/demo.ts', ...args],
      { cwd: PACKAGE_DIR, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c;
    });
    child.stderr.on('data', (c: Buffer) => {
      out += c;
    });
    [code] = (await once(child, 'exit')) as [number | null];
  });
  afterAll(() => {
    for (const r of readers) r.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('GIVEN the demo at small sizes THEN it exits 0 and says PASS, each server played by another adapter', () => {
    expect(code, out).toBe(0);
    expect(out).toMatch(
      /^PASS: [\d,]+ rows from 3 servers merged and verified, 0 key collisions; without snowkey the same game lost [1-9][\d,]* rows \(/m,
    );
    const sections = [
      '1. Play',
      '-- merging',
      '2. Merge',
      '3. Verify',
      '4. What goes wrong',
      '5. What',
      '6. What',
      'PASS:',
    ];
    const at = sections.map((s) => out.indexOf(s));
    expect(
      at.every((i) => i >= 0),
      out,
    ).toBe(true);
    expect(at).toEqual([...at].sort((a, b) => a - b));
    expect(out).toMatch(/ 0 key collisions, [\d,]+ renames; \[ok \] verified$/m);
    for (const [server, adapter] of [
      ['S1', 'typeorm'],
      ['S2', 'prisma'],
      ['S3', 'knex'],
    ])
      expect(out).toMatch(new RegExp(`^ +${server} +${adapter} +12 `, 'm'));
  });

  test('GIVEN the merged database it left THEN by SQL it holds every row of the three shards once, references resolve, ids decode to their server', async () => {
    const shards = await Promise.all(SERVERS.map((s) => countsOf(open(`s${s}`))));
    const merged = open('merged');
    const counts = await countsOf(merged);
    for (const t of GAME_TABLE_NAMES) expect(counts[t], t).toBe(shards.reduce((a, s) => a + s[t]!, 0));
    expect(await danglingOf(merged)).toEqual(NO_DANGLING);
    expect(await duplicatesOf(merged)).toBe(0);
    for (const s of SERVERS) {
      for (const t of GAME_TABLE_NAMES) expect(await foreignBornOf(open(`s${s}`), t, s), t).toBe(0);
    }
  });

  test('GIVEN the AUTO_INCREMENT contrast THEN the collisions the merge reports, the verifier counts and SQL finds are one number', async () => {
    const reported = /the merge met ([\d,]+) key collisions/.exec(out)?.[1];
    const verified = /\[broke\] key collisions: ([\d,]+) rows/.exec(out)?.[1];
    const shards = await Promise.all(SERVERS.map((s) => countsOf(open(`ai_s${s}`))));
    const merged = await countsOf(open('ai_merged'));
    const missing = GAME_TABLE_NAMES.reduce(
      (a, t) => a + shards.reduce((b, s) => b + s[t]!, 0) - merged[t]!,
      0,
    );
    expect(missing).toBeGreaterThan(0);
    expect(reported?.replaceAll(',', '')).toBe(String(missing));
    expect(verified?.replaceAll(',', '')).toBe(String(missing));
  });

  test('GIVEN the ticket-server contrast THEN two servers merge clean and the third breaks it', () => {
    expect(out).toMatch(/^ +step 2, servers 1 and 2 +S1\+S2 +[\d,]+ +0 +0 +clean$/m);
    expect(out).toMatch(
      /^ +step 3 after server 3 opened +S1\+S2\+S3 +[\d,]+ +[1-9][\d,]* +[1-9][\d,]* +BROKEN$/m,
    );
  });

  test('GIVEN the segment contrast THEN own counters collide, as many rows as SQL finds missing, and slices or a shared counter merge clean', async () => {
    const own =
      /^ +own counter in each server's database +S1\+S2\+S3 +[\d,]+ +([1-9][\d,]*) +[1-9][\d,]* +BROKEN$/m.exec(
        out,
      )?.[1];
    const shards = await Promise.all(SERVERS.map((s) => countsOf(open(`sg_own_s${s}`))));
    const merged = await countsOf(open('sg_own_merged'));
    const missing = GAME_TABLE_NAMES.reduce(
      (a, t) => a + shards.reduce((b, s) => b + s[t]!, 0) - merged[t]!,
      0,
    );
    expect(missing).toBeGreaterThan(0);
    expect(own?.replaceAll(',', '')).toBe(String(missing));
    for (const title of ['own counter, shardIdRange slice per server', 'one counter all servers share']) {
      expect(out).toMatch(new RegExp(`^ +${title} +S1\\+S2\\+S3 +[\\d,]+ +0 +0 +clean$`, 'm'));
      const phase = title.startsWith('own') ? 'sg_slice' : 'sg_shared';
      const rows = await Promise.all(SERVERS.map((s) => countsOf(open(`${phase}_s${s}`))));
      const all = await countsOf(open(`${phase}_merged`));
      for (const t of GAME_TABLE_NAMES) expect(all[t], t).toBe(rows.reduce((a, s) => a + s[t]!, 0));
    }
  });
});
