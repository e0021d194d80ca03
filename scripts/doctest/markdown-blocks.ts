import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { DOC_DIALECTS, type DocBlock, DocBlockError, type DocDialect } from './doc-block.js';

/** The fence languages whose blocks are checked; everything else (sh, console, md...) is prose. */
const CHECKED = new Map([
  ['ts', 'ts'],
  ['typescript', 'ts'],
  ['sql', 'sql'],
  ['prisma', 'prisma'],
]);

/**
 * The checked code blocks of a Markdown file, read with a CommonMark parser (so indented blocks
 * in list items, longer fences and `~~~` fences are found as a renderer finds them), with the
 * markers of their info string: ```` ```ts fragment ````, `no-run`, `db=postgres,mysql`,
 * `file=entities.ts`. An unknown marker is an error, so a misspelt one cannot switch a check off.
 *
 * @example
 * readMarkdownBlocks('/repo/packages/knex/README.md').filter((b) => b.lang === 'ts').length;
 */
export function readMarkdownBlocks(file: string, text = readFileSync(file, 'utf8')): DocBlock[] {
  const blocks: DocBlock[] = [];
  visit(fromMarkdown(text), (node) => {
    const lang = CHECKED.get((node.lang ?? '').toLowerCase());
    if (!lang) return;
    // The fence line is position.start; the code starts on the next line.
    const line = (node.position?.start.line ?? 0) + 1;
    blocks.push({
      source: file,
      line,
      lang,
      code: node.value,
      home: dirname(file),
      ...markers(file, line, lang, node.meta),
    });
  });
  return blocks;
}

function markers(
  file: string,
  line: number,
  lang: string,
  meta: string | null | undefined,
): Pick<DocBlock, 'kind' | 'run' | 'dialects' | 'file'> {
  let kind: DocBlock['kind'] = 'module';
  let run = lang === 'ts' || lang === 'sql';
  let dialects: DocDialect[] = [];
  let name: string | undefined;
  for (const token of (meta ?? '').split(/\s+/).filter(Boolean)) {
    const [key, value] = token.split('=', 2) as [string, string | undefined];
    if (key === 'fragment' && value === undefined && lang === 'ts') {
      kind = 'fragment';
      run = false;
    } else if (key === 'no-run' && value === undefined) {
      run = false;
    } else if (key === 'db' && value && lang === 'ts') {
      dialects = value.split(',').map((d) => {
        if (!(DOC_DIALECTS as readonly string[]).includes(d)) {
          throw new DocBlockError(
            file,
            line - 1,
            `db=${value}: "${d}" is not one of ${DOC_DIALECTS.join(', ')}`,
          );
        }
        return d as DocDialect;
      });
    } else if (key === 'file' && value && lang === 'ts' && /^[\w.-]+\.ts$/.test(value)) {
      name = value;
    } else {
      throw new DocBlockError(
        file,
        line - 1,
        `unknown marker "${token}" on a \`${lang}\` block (markers: fragment, no-run, db=<${DOC_DIALECTS.join('|')},...>, file=<name>.ts; see CONTRIBUTING.md)`,
      );
    }
  }
  if (kind === 'fragment' && (dialects.length || name)) {
    throw new DocBlockError(file, line - 1, 'a fragment is never run or imported: drop db= and file=');
  }
  return { kind, run, dialects, ...(name ? { file: name } : {}) };
}

type Node = { type: string; children?: Node[] };

/** The fields of an mdast `code` node this reader uses. */
interface Code {
  readonly lang?: string | null;
  readonly meta?: string | null;
  readonly value: string;
  readonly position?: { readonly start: { readonly line: number } };
}

function visit(node: Node, onCode: (code: Code) => void): void {
  if (node.type === 'code') onCode(node as unknown as Code);
  for (const child of node.children ?? []) visit(child, onCode);
}
