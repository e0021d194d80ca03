import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { collectDocBlocks } from '../../scripts/doctest/collect.js';
import type { DocBlock } from '../../scripts/doctest/doc-block.js';
import { runDocBlock, sqlStatements } from '../../scripts/doctest/run-block.js';
import { describeEachDialect } from '../helpers/databases.js';

// The documentation's programs, run: every sql block of every Markdown file on every database,
// and every ts block that is a whole program (not a fragment, not marked no-run), each against a
// fresh database of every dialect its `db=` marker names, after its file's sql blocks created the
// tables; a block without `db=` runs once, with no database. `pnpm typecheck` checks their types.

const root = fileURLToPath(new URL('../../', import.meta.url));
const blocks = collectDocBlocks(root);
const at = (b: DocBlock) => `${relative(root, b.source)}:${b.line}`;
const programs = blocks.filter((b) => b.lang === 'ts' && b.run && !b.file);
const sources = [...new Set(blocks.filter((b) => b.run).map((b) => b.source))];

async function expectRuns(
  block: DocBlock,
  target: Omit<Parameters<typeof runDocBlock>[1], 'root' | 'blocks'>,
) {
  const run = await runDocBlock(block, { root, blocks, ...target });
  expect(run.ok, `${at(block)} failed:\n${run.output}`).toBe(true);
}

describe('documentation programs without a database', () => {
  const plain = programs.filter((b) => b.dialects.length === 0);
  test.each(plain.map((b) => [at(b), b] as const))('GIVEN %s THEN it runs to the end', async (_, block) => {
    await expectRuns(block, {});
  });
});

for (const source of sources) {
  const sql = blocks.filter((b) => b.source === source && b.lang === 'sql' && b.run);
  const withDb = programs.filter((b) => b.source === source && b.dialects.length > 0);
  if (!sql.length && !withDb.length) continue;
  describeEachDialect(
    `documentation of ${relative(root, source)}`,
    (ctx) => {
      test.each(sql.map((b) => [at(b), b] as const))(
        'GIVEN the sql block at %s THEN every statement runs',
        async (_, block) => {
          for (const statement of sqlStatements(block.code)) await ctx.db.query(statement);
        },
      );
      const mine = withDb.filter((b) => b.dialects.includes(ctx.dialect));
      test.each(mine.map((b) => [at(b), b] as const))(
        'GIVEN the program at %s and its tables THEN it runs to the end',
        async (_, block) => {
          await expectRuns(block, { dialect: ctx.dialect, url: ctx.db.url });
        },
      );
    },
    { label: 'docs' },
  );
}
