import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ensurePrismaClients } from '../prisma-generate-offline.mjs';
import type { DocBlock, DocDialect } from './doc-block.js';

/**
 * A README with a ```prisma block documents a schema, and its TypeScript blocks import the client
 * generated from it as `./generated/prisma/client.js`, as an application does. This generates that
 * client (offline, cached by the schema's hash) for `dialect` from the block's models (its
 * generator and datasource blocks are replaced per dialect), and writes the module at
 * `<dir>/generated/prisma/client.ts` that the blocks in `dir` import.
 *
 * @example
 * linkPrismaClient('/repo/packages/prisma', blocks, 'postgres', '/repo/packages/prisma/.doctest');
 */
export function linkPrismaClient(
  home: string,
  blocks: readonly DocBlock[],
  dialect: DocDialect,
  dir: string,
): boolean {
  const schemas = blocks.filter((b) => b.home === home && b.lang === 'prisma');
  if (!schemas.length) return false;
  const cache = join(home, '.doctest', 'prisma');
  mkdirSync(cache, { recursive: true });
  const models = join(cache, 'models.prisma');
  writeFileSync(models, schemas.map((b) => modelsOnly(b.code)).join('\n\n'));
  const clients = ensurePrismaClients({ packageDir: home, models, outDir: cache, dialects: [dialect] });
  const shim = join(dir, 'generated', 'prisma', 'client.ts');
  mkdirSync(dirname(shim), { recursive: true });
  const target = relative(dirname(shim), join(clients[dialect], 'client.js'));
  writeFileSync(shim, `export * from '${target.startsWith('.') ? target : `./${target}`}';\n`);
  return true;
}

/** The schema without its `generator` and `datasource` blocks. */
function modelsOnly(schema: string): string {
  return schema.replace(/^\s*(generator|datasource)\s+\w+\s*\{[\s\S]*?^\}\s*$/gm, '').trim();
}
