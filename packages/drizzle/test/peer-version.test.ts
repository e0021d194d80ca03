import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { expectUnsupportedPeer } from '@snowkey/test-harness/unsupported-peer';
import { describe, expect, test, vi } from 'vitest';
import { snowflakeId as mysqlSnowflakeId, snowflakeRef as mysqlSnowflakeRef } from '../src/mysql-core.js';
import { DRIZZLE_RANGE, drizzleVersion } from '../src/peer-version.js';
import { snowflakeId, snowflakeRef } from '../src/pg-core.js';
import { snowflakeId as sqliteSnowflakeId, snowflakeRef as sqliteSnowflakeRef } from '../src/sqlite-core.js';

// The version the column builders read, replaced per test; the real one unless a test sets another.
const loaded = vi.hoisted(() => ({ version: undefined as string | undefined }));
vi.mock('drizzle-orm/version', async (importOriginal) => {
  const real = (await importOriginal()) as { npmVersion: string };
  return {
    ...real,
    get npmVersion() {
      return loaded.version ?? real.npmVersion;
    },
  };
});

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// The installed drizzle-orm's own manifest, found beside its main entry (its exports map hides package.json).
const installed = JSON.parse(
  readFileSync(join(dirname(createRequire(import.meta.url).resolve('drizzle-orm')), 'package.json'), 'utf8'),
).version as string;
const generator = { nextId: () => 1n };
const builders = {
  'pg-core snowflakeId': () => snowflakeId('id', generator),
  'pg-core snowflakeRef': () => snowflakeRef('owner_id'),
  'mysql-core snowflakeId': () => mysqlSnowflakeId(generator),
  'mysql-core snowflakeRef': () => mysqlSnowflakeRef(),
  'sqlite-core snowflakeId': () => sqliteSnowflakeId('id', generator),
  'sqlite-core snowflakeRef': () => sqliteSnowflakeRef('owner_id'),
};

describe('the Drizzle version', () => {
  test('GIVEN package.json THEN the range checked is its peerDependencies["drizzle-orm"]', () => {
    expect(DRIZZLE_RANGE).toBe(manifest.peerDependencies['drizzle-orm']);
  });

  test('GIVEN the installed drizzle-orm THEN the version read is its own and every column builder accepts it', () => {
    expect(drizzleVersion()).toBe(installed);
    for (const build of Object.values(builders)) expect(build).not.toThrow();
  });

  test.each(
    ['0.44.7', '1.0.0-beta.2', '1.0.0'].flatMap((version) =>
      Object.keys(builders).map((builder) => [version, builder] as const),
    ),
  )(
    'GIVEN drizzle-orm %s THEN %s throws an UnsupportedPeerError naming it and the range',
    (version, builder) => {
      loaded.version = version;
      try {
        expectUnsupportedPeer(builders[builder as keyof typeof builders], {
          adapter: '@snowkey/drizzle',
          peer: 'drizzle-orm',
          found: version,
          expected: DRIZZLE_RANGE,
        });
      } finally {
        loaded.version = undefined;
      }
    },
  );
});
