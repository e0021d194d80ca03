import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expectUnsupportedPeer } from '@snowkey/test-harness/unsupported-peer';
import { describe, expect, test, vi } from 'vitest';
import { IdJsonInterceptor, ParseIdPipe } from '../src/nest.js';
import { NEST_COMMON_RANGE, nestCommonVersion } from '../src/nest-version.js';

const { peerPackageJson } = await vi.hoisted(() => import('@snowkey/test-harness/peer-package-json'));
// The version the Nest pieces read, replaced per test; the real one unless a test sets another.
const loaded = vi.hoisted(() => ({ version: undefined as string | undefined }));
vi.mock('@nestjs/common/package.json', (importOriginal) =>
  peerPackageJson(importOriginal, () => loaded.version),
);

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const installed = createRequire(import.meta.url)('@nestjs/common/package.json').version as string;
const setUps = {
  'new IdJsonInterceptor()': () => new IdJsonInterceptor(),
  'new ParseIdPipe()': () => new ParseIdPipe(),
};

describe('the @nestjs/common version of @snowkey/http/nest', () => {
  test('GIVEN package.json THEN the range checked is its peerDependencies["@nestjs/common"]', () => {
    expect(NEST_COMMON_RANGE).toBe(manifest.peerDependencies['@nestjs/common']);
  });

  test('GIVEN the installed @nestjs/common THEN the version read is its own and the pipe and interceptor accept it', () => {
    expect(nestCommonVersion()).toBe(installed);
    expect(setUps['new IdJsonInterceptor()']()).toBeInstanceOf(IdJsonInterceptor);
    expect(setUps['new ParseIdPipe()']()).toBeInstanceOf(ParseIdPipe);
  });

  test.each(
    ['10.4.15', '13.0.0'].flatMap((version) => Object.keys(setUps).map((setUp) => [version, setUp] as const)),
  )(
    'GIVEN @nestjs/common %s THEN %s throws an UnsupportedPeerError naming it and the range',
    (version, setUp) => {
      loaded.version = version;
      try {
        expectUnsupportedPeer(setUps[setUp as keyof typeof setUps], {
          adapter: '@snowkey/http',
          peer: '@nestjs/common',
          found: version,
          expected: NEST_COMMON_RANGE,
        });
      } finally {
        loaded.version = undefined;
      }
    },
  );
});
