import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expectUnsupportedPeer } from '@snowkey/test-harness/unsupported-peer';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { snowkey, snowkeyClient } from '../src/index.js';
import { PRISMA_CLIENT_RANGE, prismaClientVersion } from '../src/peer-version.js';
import { openUnconnectedPrisma, type TestPrismaClient } from './helpers/prisma-test-client.js';

// The version snowkey() and snowkeyClient() read, replaced per test; the real one unless a test sets another.
const loaded = vi.hoisted(() => ({ version: undefined as string | undefined }));
vi.mock('@prisma/client/extension', async (importOriginal) => {
  const real = (await importOriginal()) as typeof import('@prisma/client/extension');
  const Prisma = {
    ...real.Prisma,
    get prismaVersion() {
      const version = real.Prisma.prismaVersion;
      return { ...version, client: loaded.version ?? version.client };
    },
  };
  return { ...real, Prisma, default: { Prisma } };
});

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const installed = createRequire(import.meta.url)('@prisma/client/package.json').version as string;
const options = { generator: { nextId: () => 1n }, models: { Item: 'id' } };

describe('the Prisma Client version', () => {
  let prisma: TestPrismaClient;
  beforeAll(async () => {
    prisma = await openUnconnectedPrisma();
  });

  test('GIVEN package.json THEN the range checked is its peerDependencies["@prisma/client"]', () => {
    expect(PRISMA_CLIENT_RANGE).toBe(manifest.peerDependencies['@prisma/client']);
  });

  test('GIVEN the installed @prisma/client THEN the version read is its own and both set-ups accept it', () => {
    expect(prismaClientVersion()).toBe(installed);
    expect(() => prisma.$extends(snowkey(options))).not.toThrow();
    expect(() => snowkeyClient(prisma, options)).not.toThrow();
  });

  test.each(['6.19.0', '7.0.0-dev.12', '8.0.0'])(
    'GIVEN @prisma/client %s THEN snowkey() and snowkeyClient() throw an UnsupportedPeerError naming it and the range',
    (version) => {
      const refused = {
        adapter: '@snowkey/prisma',
        peer: '@prisma/client',
        found: version,
        expected: PRISMA_CLIENT_RANGE,
      };
      loaded.version = version;
      try {
        expectUnsupportedPeer(() => snowkey(options), refused);
        expectUnsupportedPeer(() => snowkeyClient(prisma, options), refused);
      } finally {
        loaded.version = undefined;
      }
    },
  );
});
