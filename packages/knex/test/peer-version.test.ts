import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expectUnsupportedPeer } from '@snowkey/test-harness/unsupported-peer';
import knex from 'knex';
import { describe, expect, test, vi } from 'vitest';
import { snowkeyKnex } from '../src/index.js';
import { KNEX_RANGE, knexVersion } from '../src/peer-version.js';

const { peerPackageJson } = await vi.hoisted(() => import('@snowkey/test-harness/peer-package-json'));
// The version snowkeyKnex reads, replaced per test; the real one unless a test sets another.
const loaded = vi.hoisted(() => ({ version: undefined as string | undefined }));
vi.mock('knex/package.json', (importOriginal) => peerPackageJson(importOriginal, () => loaded.version));

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const installed = createRequire(import.meta.url)('knex/package.json').version as string;
// No connection is configured, so Knex never connects.
const offline = () => knex({ client: 'pg' });
const options = { generator: { nextId: () => 1n }, tables: { t: 'id' } };

describe('the Knex version', () => {
  test('GIVEN package.json THEN the range checked is its peerDependencies.knex', () => {
    expect(KNEX_RANGE).toBe(manifest.peerDependencies.knex);
  });

  test('GIVEN the installed Knex THEN the version read is its own and snowkeyKnex accepts it', () => {
    expect(knexVersion()).toBe(installed);
    expect(snowkeyKnex(offline(), options).dialect).toBe('postgres');
  });

  test.each(['2.5.1', '3.0.0', '4.0.0'])(
    'GIVEN Knex %s THEN snowkeyKnex throws an UnsupportedPeerError naming it and the range',
    (version) => {
      loaded.version = version;
      try {
        expectUnsupportedPeer(() => snowkeyKnex(offline(), options), {
          adapter: '@snowkey/knex',
          peer: 'knex',
          found: version,
          expected: KNEX_RANGE,
        });
      } finally {
        loaded.version = undefined;
      }
    },
  );
});
