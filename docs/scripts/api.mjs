// Generates the API reference (docs/api/, never committed) from the TSDoc of every public entry:
// each `exports` path of each package gets a module named as users import it.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Application } from 'typedoc';

const docs = fileURLToPath(new URL('..', import.meta.url));
const repo = join(docs, '..');
const entriesDir = join(docs, '.api-entries');
rmSync(entriesDir, { recursive: true, force: true });
mkdirSync(entriesDir, { recursive: true });

const entryPoints = [];
for (const dir of readdirSync(join(repo, 'packages')).sort()) {
  const manifest = JSON.parse(readFileSync(join(repo, 'packages', dir, 'package.json'), 'utf8'));
  for (const [path, target] of Object.entries(manifest.exports ?? {})) {
    if (typeof target !== 'object' || !target['dev-source']) continue;
    const name = path === '.' ? manifest.name : `${manifest.name}/${path.slice(2)}`;
    const file = join(entriesDir, `${name.replace(/[@/]/g, '_')}.ts`);
    writeFileSync(file, `/**\n * @packageDocumentation\n * @module ${name}\n */\nexport * from '${name}';\n`);
    entryPoints.push(file);
  }
}
writeFileSync(
  join(entriesDir, 'tsconfig.json'),
  JSON.stringify({
    extends: '../../tsconfig.base.json',
    compilerOptions: { noEmit: true },
    include: ['*.ts'],
  }),
);

const app = await Application.bootstrapWithPlugins({
  entryPoints,
  tsconfig: join(entriesDir, 'tsconfig.json'),
  plugin: ['typedoc-plugin-markdown', 'typedoc-vitepress-theme'],
  out: join(docs, 'api'),
  docsRoot: docs,
  readme: 'none',
  skipErrorChecking: true,
  excludePrivate: true,
  excludeInternal: true,
  hideGenerator: true,
  name: 'API reference',
  logLevel: 'Warn',
  validation: { notExported: false, invalidLink: false, invalidPath: false },
});
const project = await app.convert();
if (!project) throw new Error('typedoc could not convert the public entries');
await app.generateOutputs(project);
rmSync(entriesDir, { recursive: true, force: true });
