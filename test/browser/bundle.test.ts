import { runInNewContext } from 'node:vm';
import { build, type Platform } from 'esbuild';
import { describe, expect, test } from 'vitest';
import { builtDist, ROOT } from './built-packages.js';

// Bundles the published entries with esbuild for the browser and for a neutral platform (Workers,
// edge functions), with no Node polyfills: any `node:` import or `require` would fail the build.
// The neutral bundle then runs in a bare V8 context holding only ECMAScript and the two web globals
// the code uses (TextEncoder, performance): no process, no require, no Buffer.

async function bundle(entry: string, platform: Platform, format: 'esm' | 'iife' = 'esm') {
  builtDist('core', '@snowkey/core');
  builtDist('http', '@snowkey/http');
  return build({
    stdin: { contents: entry, resolveDir: ROOT, loader: 'js' },
    bundle: true,
    platform,
    format,
    globalName: format === 'iife' ? 'bundled' : undefined,
    write: false,
    logLevel: 'silent',
    // The published files (exports map: import/default), as a user's bundler resolves them.
    conditions: [],
  }).then(
    (result) => ({ ok: true as const, result, text: result.outputFiles[0]!.text }),
    (err: { errors?: Array<{ text: string }> }) => ({
      ok: false as const,
      errors: err.errors?.map((e) => e.text) ?? [],
    }),
  );
}

describe.each(['browser', 'neutral'] as const)('esbuild, platform %s', (platform) => {
  test('GIVEN the main entry of @snowkey/core THEN it bundles with no error, no warning and no Node built-in', async () => {
    const out = await bundle("export * from '@snowkey/core';", platform);
    expect(out.ok && out.result.errors).toEqual([]);
    expect(out.ok && out.result.warnings).toEqual([]);
    const text = out.ok ? out.text : '';
    expect(text).toContain('publicIdCodec');
    expect(text).not.toMatch(/\brequire\(|from ["']node:|import\(["']node:/);
  });

  test('GIVEN the main entry of @snowkey/http THEN it bundles with no error, no warning and no Node built-in', async () => {
    const out = await bundle("export * from '@snowkey/http';", platform);
    expect(out.ok && out.result.errors).toEqual([]);
    expect(out.ok && out.result.warnings).toEqual([]);
    const text = out.ok ? out.text : '';
    expect(text).toContain('jsonResponse');
    expect(text).not.toMatch(/\brequire\(|from ["']node:|import\(["']node:/);
  });

  test('GIVEN the Node-only entry @snowkey/core/node THEN the same build refuses it (the check can fail)', async () => {
    const out = await bundle("export * from '@snowkey/core/node';", platform);
    expect(out.ok).toBe(false);
    expect(out.ok ? '' : out.errors.join('\n')).toMatch(/Could not resolve "(node:)?os"/);
  });
});

test('GIVEN the neutral bundle in a bare V8 context THEN it generates, round-trips and hides ids without any Node global', async () => {
  const out = await bundle(
    `import { Snowflake, parseId, toIdString, publicIdCodec } from '@snowkey/core';
     let t = Date.UTC(2026, 0, 1);
     const gen = new Snowflake({ workerId: 9, clock: () => t++ });
     const id = gen.nextId();
     const codec = publicIdCodec({ key: '000102030405060708090a0b0c0d0e0f', entity: 'order' });
     export const report = {
       id: String(id),
       wire: parseId(toIdString(id)) === id,
       publicId: codec.encode(id),
       back: codec.decode(codec.encode(id)) === id,
       worker: gen.decode(id).workerId,
     };`,
    'neutral',
    'iife',
  );
  expect(out.ok).toBe(true);
  // A fresh V8 context: ECMAScript built-ins and these two web globals, nothing of Node.
  const context: Record<string, unknown> = { TextEncoder, performance: { now: () => 0, timeOrigin: 0 } };
  runInNewContext(out.ok ? out.text : '', context);
  expect(runInNewContext('[typeof process, typeof require, typeof Buffer].join()', context)).toBe(
    'undefined,undefined,undefined',
  );
  const report = (context.bundled as { report: Record<string, unknown> }).report;
  expect(report).toMatchObject({ wire: true, back: true, worker: 9 });
  const { publicIdCodec } = await import('@snowkey/core');
  const codec = publicIdCodec({ key: '000102030405060708090a0b0c0d0e0f', entity: 'order' });
  expect(report.publicId).toBe(codec.encode(BigInt(report.id as string)));
});
