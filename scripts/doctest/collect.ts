import { dirname, join, relative } from 'node:path';
import { globSync } from 'tinyglobby';
import type { DocBlock } from './doc-block.js';
import { readMarkdownBlocks } from './markdown-blocks.js';
import { readTsdocExamples } from './tsdoc-examples.js';

/** Never documentation of this repository: installed, built, generated or test-fixture files. */
const IGNORED = [
  '**/node_modules/**',
  '**/dist/**',
  '**/.doctest/**',
  '**/generated/**',
  '**/fixtures/**',
  '**/.tmp/**',
  // The API reference, generated from the TSDoc the checker already reads.
  'docs/api/**',
];

/**
 * Every checked block under `root`: the fenced blocks of every Markdown file (a new package's
 * README is found without being listed), and the `@example` blocks of every source file of
 * `packages/*` (their home is the package directory).
 *
 * @example
 * const blocks = collectDocBlocks('/repo');
 * blocks.filter((b) => b.kind === 'fragment').length;
 */
export function collectDocBlocks(root: string): DocBlock[] {
  const markdown = globSync(['**/*.md'], { cwd: root, ignore: IGNORED, absolute: true }).sort();
  const sources = globSync(['packages/*/src/**/*.ts'], { cwd: root, ignore: IGNORED, absolute: true }).sort();
  return [
    ...markdown.flatMap((file) => readMarkdownBlocks(file)),
    ...sources.flatMap((file) => readTsdocExamples(file, packageDir(root, file))),
  ];
}

/** `/repo/packages/core/src/lease/x.ts` -> `/repo/packages/core`. */
function packageDir(root: string, file: string): string {
  const [, name] = relative(root, file).split('/');
  return join(root, 'packages', name ?? dirname(file));
}
