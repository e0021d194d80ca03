import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { collectDocBlocks } from '../../scripts/doctest/collect.js';
import { DocBlockError, formatProblem } from '../../scripts/doctest/doc-block.js';
import { readMarkdownBlocks } from '../../scripts/doctest/markdown-blocks.js';
import { runDocBlock, sqlStatements } from '../../scripts/doctest/run-block.js';
import { typecheckDocBlocks } from '../../scripts/doctest/typecheck.js';

// The checker checked: a fixture repository (test/docs/fixtures/broken) whose README and TSDoc
// hold broken blocks next to good ones. Each broken block must be reported at its own line.

const repo = fileURLToPath(new URL('../../', import.meta.url));
const fixture = join(repo, 'test/docs/fixtures/broken');
const blocks = collectDocBlocks(fixture);
const at = (line: number) => blocks.find((b) => b.source.endsWith('README.md') && b.line === line)!;

describe('the doc checker on a fixture with broken blocks', () => {
  test('GIVEN the fixture THEN it finds the ts, sql and TSDoc blocks, and no sh block', () => {
    expect(blocks.map((b) => `${relative(fixture, b.source)}:${b.line} ${b.lang} ${b.kind}`)).toEqual([
      'README.md:6 ts module',
      'README.md:13 ts fragment',
      'README.md:19 ts module',
      'README.md:25 ts module',
      'README.md:30 sql module',
      'README.md:41 ts module',
      'README.md:45 ts module',
      'README.md:53 ts module',
      'packages/demo/src/demo.ts:5 ts fragment',
      'packages/demo/src/demo.ts:9 ts fragment',
    ]);
  });

  test('GIVEN a type error, an undeclared free name and misused prelude names THEN each is reported at its line, and nothing else', () => {
    const problems = typecheckDocBlocks(blocks, join(repo, 'tsconfig.base.json')).map((p) =>
      formatProblem(p, fixture),
    );
    expect(problems).toEqual([
      expect.stringMatching(/^packages\/demo\/src\/demo\.ts:6:7 - error TS2345: Argument of type 'number'/),
      expect.stringMatching(
        /^packages\/demo\/src\/demo\.ts:11:7 - error TS2339: Property 'toUpperCase' does not exist/,
      ),
      expect.stringMatching(
        /^README\.md:7:7 - error TS2322: Type 'string' is not assignable to type 'number'/,
      ),
      expect.stringMatching(/^README\.md:13:1 - error TS2304: Cannot find name 'undeclared'/),
    ]);
  }, 120_000);

  test('GIVEN a program that throws THEN its run fails with its error; GIVEN one that finishes, or imports a file= block, THEN it passes', async () => {
    const failing = await runDocBlock(at(19), { root: repo, blocks });
    expect(failing.ok).toBe(false);
    expect(failing.output).toContain('this program fails');
    const passing = await runDocBlock(at(25), { root: repo, blocks });
    expect(passing).toEqual({ ok: true, output: '' });
    // A program that imports the README's file=greeting.ts block.
    expect(at(41).file).toBe('greeting.ts');
    expect(await runDocBlock(at(45), { root: repo, blocks })).toEqual({ ok: true, output: '' });
  }, 120_000);

  test('GIVEN a server program THEN it gets a free PORT to listen on and a PUBLIC_ID_KEY of 32 hex digits', async () => {
    expect(await runDocBlock(at(53), { root: repo, blocks })).toEqual({ ok: true, output: '' });
  }, 120_000);

  test('GIVEN a sql block THEN it splits into statements at the semicolons that end lines', () => {
    expect(sqlStatements(at(30).code)).toEqual([
      'CREATE TABLE fixture_rows (id BIGINT NOT NULL PRIMARY KEY)',
      'INSERT INTO fixture_rows (id) VALUES (1)',
    ]);
  });

  test.each([
    ['```ts fragmnet\nx;\n```\n', 'unknown marker "fragmnet"'],
    ['```ts db=oracle\nx;\n```\n', 'db=oracle: "oracle" is not one of postgres, mysql, sqlite'],
    ['```ts fragment db=postgres\nx;\n```\n', 'a fragment is never run or imported'],
    ['```sql fragment\nSELECT 1;\n```\n', 'unknown marker "fragment" on a `sql` block'],
  ])('GIVEN the fence %j THEN reading it throws naming the problem', (markdown, message) => {
    expect(() => readMarkdownBlocks('/docs/README.md', `# t\n\n${markdown}`)).toThrow(DocBlockError);
    expect(() => readMarkdownBlocks('/docs/README.md', `# t\n\n${markdown}`)).toThrow(message);
  });
});
