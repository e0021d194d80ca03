#!/usr/bin/env node
// Generates the insert benchmark's Prisma clients (one per dialect) into the gitignored
// bench/insert/generated/<dialect>/client, from rows.prisma. The benchmark generates them on
// demand too; this entry exists so the typecheck sees the client types on a fresh clone.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensurePrismaClients } from '../../../scripts/prisma-generate-offline.mjs';

const here = dirname(fileURLToPath(import.meta.url));
ensurePrismaClients({
  packageDir: join(here, '../../../packages/prisma'),
  models: join(here, 'rows.prisma'),
  outDir: join(here, '../generated'),
});
