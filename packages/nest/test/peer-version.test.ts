import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Snowflake } from '@snowkey/core';
import { expectUnsupportedPeer } from '@snowkey/test-harness/unsupported-peer';
import { describe, expect, test, vi } from 'vitest';
import { SnowkeyModule } from '../src/index.js';
import { NEST_RANGES, nestVersions } from '../src/peer-version.js';

const { peerPackageJson } = await vi.hoisted(() => import('@snowkey/test-harness/peer-package-json'));
// The versions SnowkeyModule reads, replaced per test; the real ones unless a test sets another.
const loaded = vi.hoisted(() => ({}) as { common?: string; core?: string });
vi.mock('@nestjs/common/package.json', (importOriginal) =>
  peerPackageJson(importOriginal, () => loaded.common),
);
vi.mock('@nestjs/core/package.json', (importOriginal) => peerPackageJson(importOriginal, () => loaded.core));

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const require = createRequire(import.meta.url);
const installed = {
  '@nestjs/common': require('@nestjs/common/package.json').version as string,
  '@nestjs/core': require('@nestjs/core/package.json').version as string,
};
const generator = new Snowflake({ workerId: 1 });
const setUps = {
  forRoot: () => SnowkeyModule.forRoot({ generator }),
  forRootAsync: () => SnowkeyModule.forRootAsync({ useFactory: () => ({ generator }) }),
};

describe('the Nest versions', () => {
  test('GIVEN package.json THEN the ranges checked are its peerDependencies', () => {
    expect(NEST_RANGES).toEqual({
      '@nestjs/common': manifest.peerDependencies['@nestjs/common'],
      '@nestjs/core': manifest.peerDependencies['@nestjs/core'],
    });
  });

  test('GIVEN the installed Nest THEN the versions read are its own and SnowkeyModule accepts them', () => {
    expect(nestVersions()).toEqual(installed);
    expect(setUps.forRoot().module).toBe(SnowkeyModule);
    expect(setUps.forRootAsync().module).toBe(SnowkeyModule);
  });

  test.each([
    ['@nestjs/common', '10.4.15', 'forRoot'],
    ['@nestjs/common', '13.0.0', 'forRootAsync'],
    ['@nestjs/core', '13.0.0', 'forRoot'],
    ['@nestjs/core', '10.4.15', 'forRootAsync'],
  ] as const)(
    'GIVEN %s %s THEN SnowkeyModule.%s throws an UnsupportedPeerError naming it',
    (peer, version, setUp) => {
      const key = peer === '@nestjs/common' ? 'common' : 'core';
      loaded[key] = version;
      try {
        expectUnsupportedPeer(setUps[setUp], {
          adapter: '@snowkey/nest',
          peer,
          found: version,
          expected: NEST_RANGES[peer],
        });
      } finally {
        delete loaded[key];
      }
    },
  );
});
