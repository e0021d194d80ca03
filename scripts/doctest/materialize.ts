import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { type DocBlock, DocBlockError } from './doc-block.js';
import { freeNames } from './free-names.js';

/** A block written out as a TypeScript module, and how its lines map back to its source. */
export interface WrittenBlock {
  readonly block: DocBlock;
  readonly file: string;
  /** Lines written before the block's first line (a fragment's prelude import). */
  readonly offset: number;
}

/**
 * The prelude of a home: `<home>/doc-prelude.ts` when there is one, otherwise (for a package) a
 * module that re-exports every entry of the package, written into `dir`; `undefined` when the home
 * is no package and has no prelude.
 *
 * @example
 * preludeFile('/repo/packages/knex', '/repo/packages/knex/.doctest'); // '/repo/packages/knex/doc-prelude.ts'
 */
export function preludeFile(home: string, dir: string): string | undefined {
  const own = join(home, 'doc-prelude.ts');
  if (existsSync(own)) return own;
  const manifest = join(home, 'package.json');
  if (!existsSync(manifest)) return undefined;
  const { name, exports } = JSON.parse(readFileSync(manifest, 'utf8')) as {
    name?: string;
    exports?: unknown;
  };
  if (!name || !exports || typeof exports !== 'object') return undefined;
  const entries = Object.keys(exports)
    .filter((k) => k.startsWith('.') && !k.endsWith('.json'))
    .map((k) => (k === '.' ? name : `${name}/${k.slice(2)}`));
  const file = join(dir, 'default-prelude.ts');
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, `${entries.map((e) => `export * from '${e}';`).join('\n')}\n`);
  return file;
}

/** The file name a block is written under in its home's `.doctest` directory. */
export function blockFileName(block: DocBlock): string {
  if (block.file) return block.file;
  const from = relative(block.home, block.source) || basename(block.source);
  return `${from.replace(/[/\\]/g, '_')}-${block.line}.ts`;
}

/**
 * Writes a TypeScript block into `dir`: a module as it is, a fragment after one line importing the
 * names it uses that `preludeNames` has. `export {}` at the end makes every block a module of its
 * own (top-level await works, and no two blocks share a scope).
 *
 * @example
 * writeBlock(block, '/repo/packages/core/.doctest', prelude, new Set(['gen']));
 */
export function writeBlock(
  block: DocBlock,
  dir: string,
  prelude: string | undefined,
  preludeNames: ReadonlySet<string>,
): WrittenBlock {
  const file = join(dir, blockFileName(block));
  mkdirSync(dirname(file), { recursive: true });
  let header = '';
  if (block.kind === 'fragment') {
    const names = freeNames(block.code).filter((n) => preludeNames.has(n));
    if (names.length && !prelude) {
      throw new DocBlockError(
        block.source,
        block.line,
        `a fragment needs a prelude: write ${join(block.home, 'doc-prelude.ts')}`,
      );
    }
    const from = prelude ? relative(dir, prelude).replace(/\.ts$/, '.js') : '';
    header = names.length
      ? `import { ${names.join(', ')} } from '${from.startsWith('.') ? from : `./${from}`}';\n`
      : '';
  }
  writeFileSync(file, `${header}${block.code}\nexport {};\n`);
  return { block, file, offset: header ? 1 : 0 };
}
