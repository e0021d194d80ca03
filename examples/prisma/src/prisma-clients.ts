import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Dialect } from '@snowkey/example-merge';
// The repository's one offline `prisma generate` (the @snowkey/prisma tests use it too).
import { ensurePrismaClients } from '../../../scripts/prisma-generate-offline.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The path of the generated Prisma client for `dialect` (examples/prisma/generated/<dialect>),
 * generating it first when it is missing or older than prisma/game.prisma. Offline: Prisma 7's
 * `generate` needs no engine, only PRISMA_SCHEMA_ENGINE_BINARY naming some file (node itself).
 * Parallel callers wait on a lock directory.
 *
 * @example
 * const { PrismaClient } = await import(ensurePrismaClient('sqlite'));
 */
export function ensurePrismaClient(dialect: Dialect): string {
  const dirs = ensurePrismaClients({
    packageDir: root,
    models: join(root, 'prisma', 'game.prisma'),
    outDir: join(root, 'generated'),
    dialects: [dialect],
  });
  return join(dirs[dialect], 'client.ts');
}
