import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describeEachDialect } from '@snowkey/test-harness';
import { chromiumMissing, launchChromium } from '@snowkey/test-harness/chromium';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { Shards, type TestShard } from '../../merge/test/support/shards.js';
import { runCli } from './run-cli.js';

const ACCOUNTS = (p: string): [string, string][] =>
  Array.from({ length: 6 }, (_, i) => [`${p}${i}@x.io`, i < 2 ? `Same${i}` : `${p}${i}`]);
const missing = chromiumMissing();
if (missing && process.env.CI === 'true') throw new Error(missing);

describeEachDialect(
  'snowkey merge run --report: the HTML report, read in Chromium',
  (ctx) => {
    const shards = new Shards(ctx.dialect);
    let s1: TestShard;
    let s2: TestShard;
    beforeAll(async () => {
      s1 = await shards.create('h_s1', 'given', { base: 1000, accounts: ACCOUNTS('a') });
      s2 = await shards.create('h_s2', 'given', { base: 2000, accounts: ACCOUNTS('b') });
    });
    afterAll(() => shards.dropAll());

    test.skipIf(missing !== undefined)(
      'GIVEN a merge run with --report THEN the page shows per table and shard the rows the target holds, the renames recorded, the verdict and a chart',
      async () => {
        const target = await shards.create('h_t');
        const file = join(mkdtempSync(join(tmpdir(), 'sk-report-')), 'merge.html');
        const r = await runCli(
          [
            'merge',
            'run',
            '--target',
            target.oracle.url,
            '--source',
            `S1=${s1.oracle.url}`,
            '--source',
            `S2=${s2.oracle.url}`,
            '--on-conflict',
            'accounts.handle=rename',
            '--on-conflict',
            'guilds.name=skip',
            '--exclude',
            'audit_log',
            '--report',
            file,
          ],
          { stderrIsTTY: false },
        );
        expect(r.code, r.stderr).toBe(0);
        const browser = await launchChromium();
        try {
          const page = await browser.newPage();
          await page.goto(pathToFileURL(file).href);
          const rows = await page.$$eval('#rows tbody tr', (trs) =>
            trs.map((tr) => ({
              table: tr.getAttribute('data-table'),
              shard: tr.getAttribute('data-shard'),
              copied: Number(tr.querySelectorAll('td')[3]!.getAttribute('data-value')),
            })),
          );
          for (const [table, key] of [
            ['accounts', 'id'],
            ['guilds', 'id'],
            ['mail', 'id'],
            ['trades', 'id'],
          ] as const) {
            for (const [shard, base] of [
              ['S1', 1000],
              ['S2', 2000],
            ] as const) {
              const [n] = await target.oracle.query<{ n: unknown }>(
                `SELECT COUNT(*) AS n FROM ${table} WHERE ${key} > ${base} AND ${key} < ${base + 1000}`,
              );
              expect(
                rows.find((x) => x.table === table && x.shard === shard)?.copied,
                `${table} ${shard}`,
              ).toBe(Number(n!.n));
            }
          }
          const [renames] = await target.oracle.query<{ n: unknown }>(
            'SELECT COUNT(*) AS n FROM snowkey_merge_renames',
          );
          expect(await page.getAttribute('#summary', 'data-renames')).toBe(String(Number(renames!.n)));
          const handle = await page.$eval('#conflicts tr[data-constraint="accounts.handle"]', (tr) =>
            [...tr.querySelectorAll('td')].map((td) => td.textContent),
          );
          expect(handle.slice(0, 3)).toEqual(['accounts.handle', 'rename', String(Number(renames!.n))]);
          expect(await page.getAttribute('#verification', 'data-ok')).toBe('true');
          expect(
            await page.$$eval('#chart svg [aria-roledescription="bar"]', (b) => b.length),
          ).toBeGreaterThan(0);
          const labels = await page.$$eval('#chart svg text', (t) => t.map((x) => x.textContent));
          for (const table of new Set(rows.map((x) => x.table))) expect(labels).toContain(table);
        } finally {
          await browser.close();
        }
      },
    );
  },
  { label: 'cli_report' },
);
