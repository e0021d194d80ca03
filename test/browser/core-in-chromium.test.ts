import { join } from 'node:path';
import { publicIdCodec } from '@snowkey/core';
import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { builtDist, ROOT } from './built-packages.js';
import { chromiumMissing, launchChromium } from './chromium.js';
import { type StaticServer, serveStatic } from './static-server.js';

// The built ESM entries of @snowkey/core and @snowkey/http, loaded by headless Chromium from a
// server on 127.0.0.1: generating, decoding, the wire format, public ids and the Response helpers,
// in a runtime with no Node built-ins.

const KEY = '5f0c7e2a9b3d4e6f8a1b2c3d4e5f6a7b';
const missing = chromiumMissing();
if (missing && process.env.CI === 'true') {
  test('GIVEN CI=true THEN Chromium must be installed', () => {
    throw new Error(`${missing}: .ci/run installs it; a browser test never skips in CI`);
  });
}

interface PageReport {
  runtime: { process: string; require: string; Buffer: string; userAgent: string };
  generator: {
    count: number;
    increasing: boolean;
    type: string;
    decoded: { workerId: number; timestamp: number; sequence: number };
    decodedFree: number;
    first: string;
    clockStart: number;
    clockLast: number;
  };
  wire: {
    json: string;
    revivedExact: boolean;
    roundTrip: boolean[];
    plainJsonParse: number;
    refused: string[];
    isIdString: boolean[];
    unsafeNumber: string;
  };
  publicIds: {
    sample: string[];
    encoded: string[];
    players: string[];
    roundTrip: boolean;
    typo: string;
    typoFault: string;
  };
  http: {
    body: string;
    contentType: string;
    badStatus: number;
    badBody: { error: string; argument: string };
  };
}

describe.skipIf(missing !== undefined && process.env.CI !== 'true')(
  '@snowkey/core in headless Chromium',
  // The first test starts Chromium and loads the page: give it room on a busy machine.
  { timeout: 180_000 },
  () => {
    let browser: Browser | undefined;
    let server: StaticServer | undefined;
    const pageErrors: string[] = [];
    // Loaded by the first test that needs it, not in a hook: a page that fails to load then fails
    // every test (vitest reports the tests of a failed beforeAll as skipped).
    let loading: Promise<PageReport> | undefined;
    const load = () => {
      loading ??= (async () => {
        server = await serveStatic(
          {
            core: builtDist('core', '@snowkey/core'),
            http: builtDist('http', '@snowkey/http'),
            fixtures: join(ROOT, 'test/browser/fixtures'),
          },
          { '@snowkey/core': '/core/index.js' },
        );
        browser = await launchChromium();
        const page = await browser.newPage();
        page.on('pageerror', (err) => pageErrors.push(err.message));
        page.on('console', (msg) => {
          if (msg.type() === 'error') pageErrors.push(msg.text());
        });
        await page.goto(server.url);
        return (await page.evaluate(
          `import('/fixtures/in-page.js').then((m) => m.run(${JSON.stringify(KEY)}))`,
        )) as PageReport;
      })();
      return loading;
    };

    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    test('GIVEN the page THEN it is a browser with no Node globals, and nothing failed to load', async () => {
      const report = await load();
      expect(report.runtime).toMatchObject({
        process: 'undefined',
        require: 'undefined',
        Buffer: 'undefined',
      });
      expect(report.runtime.userAgent).toMatch(/HeadlessChrome|Chrome/);
      expect(pageErrors).toEqual([]);
    });

    test('GIVEN a generator with an injected clock THEN it makes unique, increasing bigint ids that decode to its node and time', async () => {
      const report = await load();
      expect(report.generator).toMatchObject({
        count: 5000,
        increasing: true,
        type: 'bigint',
        decodedFree: 5,
      });
      expect(report.generator.decoded.workerId).toBe(5);
      // The restart guard puts the first id after the creation millisecond; none runs ahead of the clock.
      expect(report.generator.clockStart).toBe(Date.UTC(2025, 2, 2));
      expect(report.generator.decoded.timestamp).toBeGreaterThan(report.generator.clockStart);
      expect(report.generator.decoded.timestamp).toBeLessThanOrEqual(report.generator.clockLast);
      expect(BigInt(report.generator.first) > 2n ** 53n).toBe(true);
    });

    test('GIVEN ids at 2^63-1 and 2^53+1 THEN they cross JSON exactly as decimal strings, and bad strings are refused', async () => {
      const report = await load();
      expect(report.wire.json).toBe(
        '{"id":"9223372036854775807","ownerId":"9007199254740993","name":"Aria"}',
      );
      expect(report.wire.revivedExact).toBe(true);
      expect(report.wire.roundTrip).toEqual([true, true]);
      // The reason for strings: the browser's JSON.parse rounds this Number to its even neighbour.
      expect(report.wire.plainJsonParse).toBe(9007199254740992);
      expect(report.wire.refused).toEqual(Array(5).fill('InvalidIdError'));
      expect(report.wire.isIdString).toEqual([true, false]);
      expect(report.wire.unsafeNumber).toBe('InvalidIdError');
    });

    test('GIVEN one key and entity THEN the page makes the very public ids Node makes, and refuses a typo', async () => {
      const report = await load();
      const orders = publicIdCodec({ key: KEY, entity: 'order' });
      const players = publicIdCodec({ key: KEY, entity: 'player' });
      expect(report.publicIds.encoded).toEqual(
        report.publicIds.sample.map((id) => orders.encode(BigInt(id))),
      );
      expect(report.publicIds.players).toEqual(
        report.publicIds.sample.slice(0, 3).map((id) => players.encode(BigInt(id))),
      );
      expect(report.publicIds.encoded).toHaveLength(103);
      expect(report.publicIds.roundTrip).toBe(true);
      expect(report.publicIds).toMatchObject({ typo: 'InvalidPublicIdError', typoFault: 'check' });
    });

    test("GIVEN @snowkey/http's built entry THEN jsonResponse and idErrorResponse work on the browser's own Response", async () => {
      const report = await load();
      expect(report.http).toEqual({
        body: '{"id":"9223372036854775807"}',
        contentType: 'application/json',
        badStatus: 400,
        badBody: expect.objectContaining({ error: 'InvalidIdError', argument: 'params.id' }),
      });
    });
  },
);
