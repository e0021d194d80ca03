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
    for (const doc of ts.getJSDocCommentsAndTags(node)) {
      if (!ts.isJSDoc(doc) || seen.has(doc.pos)) continue;
      seen.add(doc.pos);
      const start = doc.getStart(source);
      const first = source.getLineAndCharacterOfPosition(start).line + 1;
      for (const example of examples(text.slice(start, doc.end), first)) {
        blocks.push({
          source: file,
          ...example,
          lang: 'ts',
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

/**
 * A tag that ends an example. The parser would also end it at any line starting with `@`, such as
 * a decorator (`@Entity()`) in the example's code, so the comment is read line by line instead.
 */
const BLOCK_TAG =
  /^@(?:example|param|returns?|throws|see|remarks|privateRemarks|deprecated|internal|default(?:Value)?|typeParam|template|since|beta|alpha|public|override|virtual|sealed|readonly|experimental|packageDocumentation)\b/;

/** The examples of one JSDoc comment (its text starts at line `first`), without the `*` margin. */
function examples(comment: string, first: number): Array<{ line: number; code: string }> {
  const lines = comment
    .replace(/^\/\*\*/, '')
    .replace(/\*\/$/, '')
    .split('\n')
    .map((l, i) => ({ text: l.replace(/^\s*\*(?: |$)/, ''), line: first + i }));
  const out: Array<{ line: number; code: string }> = [];
  let body: Line[] | undefined;
  let inFence = false;
  const finish = () => {
    if (!body) return;
    const fenced = fences(body);
    for (const piece of (fenced.length ? fenced : [body]).map(trimBlank)) {
      if (piece.length) out.push({ line: piece[0]!.line, code: piece.map((l) => l.text).join('\n') });
    }
    body = undefined;
  };
  for (const l of lines) {
    if (/^\s*```/.test(l.text)) inFence = !inFence;
    if (!inFence && BLOCK_TAG.test(l.text.trim())) {
      finish();
      // The rest of the @example line is a caption (TSDoc); the code starts on the next line.
      if (l.text.trim().startsWith('@example')) body = [];
      continue;
    }
    body?.push(l);
  }
  finish();
  return out;
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
