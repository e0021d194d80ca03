#!/usr/bin/env node
// Generates the Prisma clients of the @snowkey/prisma tests (one per dialect) into the
// gitignored test/generated/<dialect>/client, from test/prisma/models.prisma, with the data model
// that the package's own generator writes beside it (test/generated/<dialect>/snowkey). The offline
// workarounds, staleness stamps and lock live in the repository's shared
// scripts/prisma-generate-offline.mjs, which the Prisma 合服 example uses too.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensurePrismaClients } from '../../../scripts/prisma-generate-offline.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
ensurePrismaClients({
  packageDir: root,
  models: join(root, 'test', 'prisma', 'models.prisma'),
  outDir: join(root, 'test', 'generated'),
  snowkeyDataModel: true,
});
