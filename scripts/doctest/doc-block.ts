/** A dialect a runnable block can be run against (the test harness's names). */
export type DocDialect = 'postgres' | 'mysql' | 'sqlite';

export const DOC_DIALECTS: readonly DocDialect[] = ['postgres', 'mysql', 'sqlite'];

/**
 * One piece of documentation code: a fenced block of a Markdown file or a TSDoc `@example`.
 *
 * @example
 * const block: DocBlock = {
 *   source: '/repo/packages/core/README.md', line: 8, lang: 'ts', code: 'const a = 1;',
 *   home: '/repo/packages/core', kind: 'module', run: true, dialects: [],
 * };
 */
export interface DocBlock {
  /** The absolute path of the file the block is written in. */
  readonly source: string;
  /** The 1-based line of `source` that holds the block's first line of code. */
  readonly line: number;
  /** `ts`, `sql`, `prisma`, ... (`typescript` is read as `ts`). */
  readonly lang: string;
  readonly code: string;
  /** The directory whose `doc-prelude.ts`, packages and `.doctest/` the block uses. */
  readonly home: string;
  /**
   * `module`: a whole module with its own imports, checked as it is. `fragment`: checked after an
   * import of the names it uses from the home's prelude (every TSDoc `@example` is one).
   */
  readonly kind: 'module' | 'fragment';
  /** Whether the test run executes it (ts modules and sql blocks, unless marked `no-run`). */
  readonly run: boolean;
  /** `db=...`: the databases a runnable ts block is run against, each a fresh one in `DATABASE_URL`. */
  readonly dialects: readonly DocDialect[];
  /** `file=name.ts`: the block is written under this name, so other blocks can import it. */
  readonly file?: string;
}

/** A problem found in documentation code, at a line of the file it is written in. */
export interface DocProblem {
  readonly source: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

/** `path:line:column - message`, the form editors and terminals turn into links. */
export function formatProblem(problem: DocProblem, relativeTo?: string): string {
  const path =
    relativeTo && problem.source.startsWith(`${relativeTo}/`)
      ? problem.source.slice(relativeTo.length + 1)
      : problem.source;
  return `${path}:${problem.line}:${problem.column} - ${problem.message}`;
}

/** Thrown for a block whose markers cannot be read; carries where it is. */
export class DocBlockError extends Error {
  constructor(
    readonly source: string,
    readonly line: number,
    message: string,
  ) {
    super(`${source}:${line}: ${message}`);
    this.name = 'DocBlockError';
  }
}
