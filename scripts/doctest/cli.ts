// `pnpm typecheck` runs this after tsc: every ```ts block of every Markdown file and every TSDoc
// @example of packages/*/src, typechecked as modules (see CONTRIBUTING.md, "Docs are code").
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collectDocBlocks } from './collect.js';
import { formatProblem } from './doc-block.js';
import { typecheckDocBlocks } from './typecheck.js';

const root = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const blocks = collectDocBlocks(root);
const problems = typecheckDocBlocks(blocks, join(root, 'tsconfig.base.json'));
for (const p of problems) console.error(formatProblem(p, root));
const ts = blocks.filter((b) => b.lang === 'ts');
const readme = ts.filter((b) => b.source.endsWith('.md')).length;
console.log(
  `docs: ${readme} Markdown ts blocks and ${ts.length - readme} TSDoc @examples typechecked, ${problems.length} problem(s)`,
);
process.exitCode = problems.length ? 1 : 0;
