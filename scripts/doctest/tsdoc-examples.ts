import { readFileSync } from 'node:fs';
import ts from 'typescript';
import type { DocBlock } from './doc-block.js';

/**
 * The `@example` blocks of a TypeScript source file, found by the TypeScript parser (so an
 * `@example` in a string or an ordinary comment is not one). The text on the `@example` line
 * itself is a caption (TSDoc's rule); the code is the rest, or the fenced blocks in it when it has
 * fences. Every one is a fragment: it is checked after an import of the names it uses from the
 * home's prelude.
 *
 * @example
 * readTsdocExamples('/repo/packages/core/src/decode.ts', '/repo/packages/core').length;
 */
export function readTsdocExamples(file: string, home: string, text = readFileSync(file, 'utf8')): DocBlock[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const seen = new Set<number>();
  const blocks: DocBlock[] = [];
  const visit = (node: ts.Node): void => {
    for (const tag of ts.getJSDocTags(node)) {
      if (tag.tagName.text !== 'example' || seen.has(tag.pos)) continue;
      seen.add(tag.pos);
      const first = source.getLineAndCharacterOfPosition(tag.tagName.pos).line + 1;
      for (const { line, code } of exampleCode(text.slice(tag.pos, tag.end), first)) {
        blocks.push({
          source: file,
          line,
          lang: 'ts',
          code,
          home,
          kind: 'fragment',
          run: false,
          dialects: [],
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return blocks;
}

/** The code lines of one tag's text (starting at line `first`), without the comment's `*` margin. */
function exampleCode(tagText: string, first: number): Array<{ line: number; code: string }> {
  const lines = tagText
    .replace(/\*\/\s*$/, '')
    .split('\n')
    .map((l) => l.replace(/^\s*\*(?: |$)/, ''));
  const body = lines.slice(1).map((text, i) => ({ text, line: first + 1 + i }));
  const fenced = fences(body);
  const pieces = fenced.length ? fenced : [body];
  return pieces
    .map((piece) => trimBlank(piece))
    .filter((piece) => piece.length > 0)
    .map((piece) => ({ line: piece[0]!.line, code: piece.map((l) => l.text).join('\n') }));
}

type Line = { text: string; line: number };

function fences(body: Line[]): Line[][] {
  const out: Line[][] = [];
  let current: Line[] | undefined;
  for (const l of body) {
    if (/^\s*```/.test(l.text)) {
      if (current) {
        out.push(current);
        current = undefined;
      } else {
        current = [];
      }
    } else if (current) {
      current.push(l);
    }
  }
  return out;
}

function trimBlank(lines: Line[]): Line[] {
  let start = 0;
  let end = lines.length;
  while (start < end && !lines[start]!.text.trim()) start++;
  while (end > start && !lines[end - 1]!.text.trim()) end--;
  return lines.slice(start, end);
}
