import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expectUnsupportedPeer } from '@snowkey/test-harness/unsupported-peer';
import Database from 'better-sqlite3';
import { Sequelize } from 'sequelize';
import { describe, expect, test, vi } from 'vitest';
import { attachSnowflakes, betterSqlite3Module } from '../src/index.js';
import { SEQUELIZE_RANGE, sequelizeVersion } from '../src/peer-version.js';

const { peerPackageJson } = await vi.hoisted(() => import('@snowkey/test-harness/peer-package-json'));
// The version attachSnowflakes reads, replaced per test; the real one unless a test sets another.
const loaded = vi.hoisted(() => ({ version: undefined as string | undefined }));
vi.mock('sequelize/package.json', (importOriginal) => peerPackageJson(importOriginal, () => loaded.version));

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const installed = createRequire(import.meta.url)('sequelize/package.json').version as string;
// SQLite in memory: nothing connects until a query runs, and none does here.
const offline = () =>
  new Sequelize({
    dialect: 'sqlite',
    storage: ':memory:',
    dialectModule: betterSqlite3Module(Database),
    logging: false,
  });
const generator = { nextId: () => 1n };

describe('the Sequelize version', () => {
  test('GIVEN package.json THEN the range checked is its peerDependencies.sequelize', () => {
    expect(SEQUELIZE_RANGE).toBe(manifest.peerDependencies.sequelize);
  });

  test('GIVEN the installed Sequelize THEN the version read is its own and attachSnowflakes accepts it', () => {
    expect(sequelizeVersion()).toBe(installed);
    expect(() => attachSnowflakes(offline(), { generator })).not.toThrow();
  });

  test.each(['6.36.0', '5.22.5', '7.0.0'])(
    'GIVEN Sequelize %s THEN attachSnowflakes throws an UnsupportedPeerError naming it and the range',
    (version) => {
      loaded.version = version;
      try {
        expectUnsupportedPeer(() => attachSnowflakes(offline(), { generator }), {
          adapter: '@snowkey/sequelize',
          peer: 'sequelize',
          found: version,
          expected: SEQUELIZE_RANGE,
        });
      } finally {
        loaded.version = undefined;
      }
    },
  );
});
