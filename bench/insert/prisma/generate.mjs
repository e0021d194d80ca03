#!/usr/bin/env node
// The insert bench's Prisma clients (gitignored bench/insert/generated), so the typecheck sees them on a fresh clone.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensurePrismaClients } from '../../../scripts/prisma-generate-offline.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, '../../../packages/prisma');
ensurePrismaClients({ packageDir, models: join(here, 'rows.prisma'), outDir: join(here, '../generated') });
