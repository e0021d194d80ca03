import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ensurePrismaClients } from '../prisma-generate-offline.mjs';
import type { DocBlock, DocDialect } from './doc-block.js';

/**
 * A README with a ```prisma block documents a schema, and its TypeScript blocks import the client
 * generated from it as `./generated/prisma/client.js`, and the data model @snowkey/prisma's generator
 * writes as `./generated/snowkey/data-model.js`, as an application does. This generates both
 * (offline, cached by the schema's hash) for `dialect` from the block's models (its generator and
 * datasource blocks are replaced per dialect), and writes the modules at
 * `<dir>/generated/prisma/client.ts` and `<dir>/generated/snowkey/data-model.ts` that the blocks in
 * `dir` import.
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
  const clients = ensurePrismaClients({
    packageDir: home,
    models,
    outDir: cache,
    dialects: [dialect],
    snowkeyDataModel: true,
  });
  reexport(join(dir, 'generated', 'prisma', 'client.ts'), join(clients[dialect], 'client.js'));
  reexport(
    join(dir, 'generated', 'snowkey', 'data-model.ts'),
    join(clients[dialect], '..', 'snowkey', 'data-model.js'),
  );
  return true;
}

/** Writes a module at `shim` that re-exports the module at `target`. */
function reexport(shim: string, target: string): void {
  mkdirSync(dirname(shim), { recursive: true });
  const path = relative(dirname(shim), target);
  writeFileSync(shim, `export * from '${path.startsWith('.') ? path : `./${path}`}';\n`);
}

/** The schema without its `generator` and `datasource` blocks. */
function modelsOnly(schema: string): string {
  return schema.replace(/^\s*(generator|datasource)\s+\w+\s*\{[\s\S]*?^\}\s*$/gm, '').trim();
}
