import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import { expect, test } from 'vitest';
import { builtDist, ROOT } from './built-packages.js';

// A user's production build minifies identifiers, classes included (`InvalidIdError` becomes `Ra`).
// The published @snowkey/core, bundled that way, must still name its errors by their class names:
// in `err.name`, in `String(err)` and in the first line of the stack.

test('GIVEN @snowkey/core bundled with minify: true THEN its errors keep their names while their classes are renamed', async () => {
  builtDist('core', '@snowkey/core');
  const result = await build({
    stdin: {
      contents: `import { parseId, publicIdCodec, InvalidIdError, SnowkeyError } from '@snowkey/core';
        function caught(fn) { try { fn(); } catch (err) { return err; } }
        const codec = publicIdCodec({ key: '000102030405060708090a0b0c0d0e0f', entity: 'order' });
        const report = (err, cls) => ({
          name: err.name,
          text: String(err).split(':')[0],
          stackHead: err.stack.split(':')[0],
          className: err.constructor.name,
          isInstance: err instanceof cls,
        });
        export const invalidId = report(caught(() => parseId('12a')), InvalidIdError);
        export const invalidPublicId = report(caught(() => codec.decode('not-a-public-id')), InvalidIdError);
        export const base = report(new SnowkeyError('x'), SnowkeyError);`,
      resolveDir: ROOT,
      loader: 'js',
    },
    bundle: true,
    minify: true,
    platform: 'neutral',
    format: 'iife',
    globalName: 'bundled',
    write: false,
    logLevel: 'silent',
    // The published files (exports map: import/default), as a user's bundler resolves them.
    conditions: [],
  });
  const context: Record<string, unknown> = { TextEncoder, performance: { now: () => 0, timeOrigin: 0 } };
  runInNewContext(result.outputFiles[0]!.text, context);
  type Report = { name: string; text: string; stackHead: string; className: string; isInstance: boolean };
  const bundled = context.bundled as Record<'invalidId' | 'invalidPublicId' | 'base', Report>;

  // The minifier did rename the classes, so the names below come from the strings they declare.
  for (const r of Object.values(bundled)) expect(r.className).not.toMatch(/Error$/);
  expect(bundled.invalidId).toMatchObject({
    name: 'InvalidIdError',
    text: 'InvalidIdError',
    stackHead: 'InvalidIdError',
    isInstance: true,
  });
  expect(bundled.invalidPublicId).toMatchObject({
    name: 'InvalidPublicIdError',
    text: 'InvalidPublicIdError',
    stackHead: 'InvalidPublicIdError',
    isInstance: true,
  });
  expect(bundled.base).toMatchObject({
    name: 'SnowkeyError',
    text: 'SnowkeyError',
    stackHead: 'SnowkeyError',
  });
});
