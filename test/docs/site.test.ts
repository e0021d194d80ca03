import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { composeId, decode, defineLayout, type Layout, layouts } from '@snowkey/core';
import type { Browser, Page } from 'playwright-core';
import { globSync } from 'tinyglobby';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromiumMissing, launchChromium } from '../browser/chromium.js';
import { type SiteServer, serveSite, siteFile } from './site-server.js';

// The docs site as a reader gets it: `pnpm docs:build` (API reference included), served from
// 127.0.0.1 and opened in headless Chromium. Every page loads and hydrates with no console error,
// every internal link and anchor of every page leads somewhere, and the playground decodes ids
// with the library's own values and messages.

const exec = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIST = join(ROOT, 'docs/.vitepress/dist');
const MAX = 9223372036854775807n;

const missing = chromiumMissing();
if (missing && process.env.CI === 'true') {
  test('GIVEN CI=true THEN Chromium must be installed', () => {
    throw new Error(`${missing}: .ci/run installs it; a browser test never skips in CI`);
  });
}

/** The URL path of each built page (`guide/clock.html` -> `/guide/clock`). */
function pagePaths(): string[] {
  return globSync(['**/*.html'], { cwd: DIST, ignore: ['404.html'] })
    .sort()
    .map((f) => `/${f.replace(/(^|\/)index\.html$/, '$1').replace(/\.html$/, '')}`);
}

/** The console errors and uncaught exceptions of a page while `action` runs. */
async function errorsDuring(page: Page, action: () => Promise<unknown>): Promise<string[]> {
  const errors: string[] = [];
  const onConsole = (m: { type(): string; text(): string }) => {
    if (m.type() === 'error') errors.push(m.text());
  };
  const onError = (e: Error) => errors.push(e.message);
  page.on('console', onConsole);
  page.on('pageerror', onError);
  try {
    await action();
  } finally {
    page.off('console', onConsole);
    page.off('pageerror', onError);
  }
  return errors;
}

describe.skipIf(missing !== undefined && process.env.CI !== 'true')('the docs site in Chromium', () => {
  let browser: Browser;
  let site: SiteServer;
  let page: Page;

  beforeAll(async () => {
    await exec('pnpm', ['-s', 'docs:build'], { cwd: ROOT, timeout: 400_000, maxBuffer: 64 << 20 });
    site = await serveSite(DIST);
    browser = await launchChromium();
    page = await browser.newPage();
  }, 420_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  const open = async (path: string) => {
    await page.goto(new URL(path.slice(1), site.url).href, { waitUntil: 'load' });
    await page.waitForFunction("Boolean(document.querySelector('#app')?.__vue_app__)");
  };

  test('GIVEN every written page and every API module page THEN each loads and hydrates with no console error', async () => {
    // The API reference's member pages (hundreds, one template) are covered by the link check.
    const paths = pagePaths().filter(
      (p) => !p.startsWith('/api/') || /^\/api\/(@snowkey\/[^/]+(\/[a-z-]+)?\/)?$/.test(p),
    );
    expect(paths).toEqual(
      expect.arrayContaining(['/', '/playground', '/guide/errors', '/api/', '/start/prisma']),
    );
    const failures: string[] = [];
    for (const path of paths) {
      const errors = await errorsDuring(page, () => open(path));
      if (errors.length) failures.push(`${path}: ${errors.join(' | ')}`);
    }
    expect(failures).toEqual([]);
  }, 300_000);

  test('GIVEN every internal link of every page THEN its page exists and so does its anchor', async () => {
    const broken: string[] = [];
    const ids = new Map<string, Set<string>>();
    for (const file of globSync(['**/*.html'], { cwd: DIST, absolute: true })) {
      const html = await readFile(file, 'utf8');
      const from = `/${relative(DIST, file)}`;
      for (const [, href] of html.matchAll(/<a [^>]*href="([^"]+)"/g)) {
        if (!href || /^[a-z]+:/i.test(href)) continue;
        const url = new URL(href.replace(/&amp;/g, '&'), new URL(from, 'http://site'));
        const target = await siteFile(DIST, url.pathname);
        if (!target) {
          broken.push(`${from}: ${href}`);
          continue;
        }
        if (!url.hash) continue;
        if (!ids.has(target)) {
          const text = await readFile(target, 'utf8');
          ids.set(target, new Set([...text.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!)));
        }
        if (!ids.get(target)!.has(decodeURIComponent(url.hash.slice(1))))
          broken.push(`${from}: ${href} (no anchor)`);
      }
    }
    expect(broken).toEqual([]);
  });

  test('GIVEN every written page THEN the sidebar links it, so that no page is left unreachable', async () => {
    const html = await readFile(join(DIST, 'playground.html'), 'utf8');
    const linked = new Set(
      [...html.matchAll(/<a [^>]*href="([^"#]+)/g)].map((m) => m[1]!.replace(/\.html$/, '')),
    );
    const written = pagePaths().filter((p) => p !== '/' && !p.startsWith('/api/'));
    expect(written.filter((p) => !linked.has(p))).toEqual([]);
  });

  describe('the playground', () => {
    const decodeIn = async (preset: string, ids: string) => {
      await open('/playground');
      await page.selectOption('[data-test=preset]', preset);
      await page.fill('[data-test=ids]', ids);
      return page.$$eval('[data-test=rows] tr', (rows) =>
        rows.map((tr) => ({
          input: tr.querySelector('th')?.textContent?.trim(),
          error:
            tr.getAttribute('data-test') === 'row-error'
              ? tr.querySelector('td')?.textContent?.trim()
              : undefined,
          fields: Object.fromEntries(
            [...tr.querySelectorAll('[data-field]')].map((f) => [
              f.getAttribute('data-field'),
              f.querySelector('code')?.textContent,
            ]),
          ),
        })),
      );
    };
    const expected = (id: bigint, layout: Layout) => {
      const d = decode(id, { layout });
      return {
        date: d.date.toISOString(),
        timestamp: String(d.timestamp),
        sequence: String(d.sequence),
        ...Object.fromEntries(layout.nodeFields.map((f) => [f.name, String(d[f.name])])),
      };
    };

    test('GIVEN 2^63-1 and the default preset THEN every field is exact, to the last bit', async () => {
      const [row] = await decodeIn('snowkey', MAX.toString());
      expect(row?.fields).toEqual({
        date: '2094-09-07T15:47:35.551Z',
        timestamp: '3934712855551',
        workerId: '1023',
        sequence: '4095',
      });
      // SNOWKEY_SCREENSHOT=1 refreshes the picture of the playground the root README shows.
      if (process.env.SNOWKEY_SCREENSHOT) {
        await page.setViewportSize({ width: 1100, height: 900 });
        await page.locator('.sk-playground').screenshot({ path: join(ROOT, 'docs/public/playground.png') });
      }
    });

    test.each(Object.keys(layouts))(
      'GIVEN an id of preset %s THEN the page shows the fields it was composed of',
      async (name) => {
        const layout = layouts[name as keyof typeof layouts] as Layout;
        const nodes = Object.fromEntries(layout.nodeFields.map((f, i) => [f.name, (i + 3) % 2 ** f.bits]));
        const timestamp = layout.epoch + 1_000_000_000 * layout.timeUnitMs;
        const id = composeId({ timestamp, sequence: 5, ...nodes } as never, layout);
        const [row] = await decodeIn(name, id.toString());
        expect(row?.fields).toEqual(expected(id, layout));
        expect(row?.fields).toMatchObject({
          sequence: '5',
          ...Object.fromEntries(Object.entries(nodes).map(([k, v]) => [k, String(v)])),
        });
      },
    );

    test('GIVEN a bad id beside a good one THEN the bad one shows the library message and the good one decodes', async () => {
      const rows = await decodeIn('twitter', '17592884729911706x 1288834974657');
      let message = '';
      try {
        decode('17592884729911706x', { layout: layouts.twitter });
      } catch (err) {
        message = `${(err as Error).name}: ${(err as Error).message}`;
      }
      expect(message).toMatch(/^InvalidIdError: /);
      expect(rows[0]).toMatchObject({ input: '17592884729911706x', error: message });
      expect(rows[1]?.fields).toEqual(expected(1288834974657n, layouts.twitter));
    });

    test("GIVEN a custom layout THEN its diagram, ids per ms and end date are the layout's, and a layout too wide is explained", async () => {
      await open('/playground');
      await page.selectOption('[data-test=preset]', 'custom');
      await page.fill('[data-test=timestampBits]', '39');
      await page.fill('[data-test=nodes]', 'regionId=4 serverId=10');
      await page.fill('[data-test=sequenceBits]', '9');
      await page.fill('[data-test=timeUnitMs]', '2');
      await page.fill('[data-test=epoch]', '2026-01-01T00:00:00Z');
      const diagram = await page.$$eval('[data-test=diagram] .sk-field', (fs) =>
        fs.map((f) => [...f.children].map((c) => c.textContent).join(' ')),
      );
      expect(diagram).toEqual(['sign 2', 'timestamp 39', 'regionId 4', 'serverId 10', 'sequence 9']);
      expect(await page.textContent('[data-test=ids-per-ms]')).toBe('256');
      expect(await page.textContent('[data-test=ends-at]')).toBe('2060-11-03T19:53:47.775Z');

      await page.fill('[data-test=timestampBits]', '37');
      await page.fill('[data-test=nodes]', 'serverId=20');
      await page.fill('[data-test=sequenceBits]', '16');
      let message = '';
      try {
        defineLayout({
          name: 'custom',
          timestampBits: 37,
          nodeBits: { serverId: 20 },
          sequenceBits: 16,
          timeUnitMs: 2,
          epoch: Date.UTC(2026, 0, 1),
        });
      } catch (err) {
        message = `${(err as Error).name}: ${(err as Error).message}`;
      }
      expect(message).toMatch(/^InvalidLayoutError: /);
      expect(await page.textContent('[data-test=layout-error]')).toBe(message);
    });
  });
});
