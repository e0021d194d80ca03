import { existsSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import type { DocBlock, DocProblem } from './doc-block.js';
import { preludeFile, type WrittenBlock, writeBlock } from './materialize.js';
import { linkPrismaClient } from './prisma-client.js';

/**
 * Typechecks every TypeScript block as its own module with the options of `tsconfig` (the
 * repository's tsconfig.base.json, whose `dev-source` condition resolves the packages' sources),
 * each written into its home's `.doctest` directory, where its imports resolve as they would in
 * that package. Fragments first get an import of the names they use from their home's prelude.
 * Returns every problem at the line of the Markdown or source file it comes from (for an
 * `@example`, the column counts from after the comment's ` * ` margin).
 *
 * @example
 * const problems = typecheckDocBlocks(collectDocBlocks('/repo'), '/repo/tsconfig.base.json');
 * for (const p of problems) console.error(formatProblem(p, '/repo'));
 */
export function typecheckDocBlocks(blocks: readonly DocBlock[], tsconfig: string): DocProblem[] {
  const options = compilerOptions(tsconfig);
  const host = cachingHost(options);
  const tsBlocks = blocks.filter((b) => b.lang === 'ts');
  const homes = [...new Set(tsBlocks.map((b) => b.home))];
  const dirs = new Map(homes.map((h) => [h, join(h, '.doctest')]));
  for (const dir of dirs.values()) clearChecked(dir);
  for (const home of homes) linkPrismaClient(home, blocks, 'postgres', dirs.get(home)!);

  const preludes = new Map(homes.map((h) => [h, preludeFile(h, dirs.get(h)!)]));
  const preludeNames = exportedNames(
    [...preludes.values()].filter((p): p is string => !!p),
    options,
    host,
  );

  const written: WrittenBlock[] = tsBlocks.map((b) => {
    const prelude = preludes.get(b.home);
    return writeBlock(b, dirs.get(b.home)!, prelude, preludeNames.get(prelude ?? '') ?? new Set());
  });
  const byFile = new Map(written.map((w) => [w.file, w]));
  const program = ts.createProgram({
    rootNames: [...written.map((w) => w.file), ...preludeNames.keys()],
    options,
    host,
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => toProblem(d, byFile))
    .sort((a, b) => a.source.localeCompare(b.source) || a.line - b.line || a.column - b.column);
}

function toProblem(d: ts.Diagnostic, byFile: ReadonlyMap<string, WrittenBlock>): DocProblem {
  const message = `error TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  if (!d.file || d.start === undefined) return { source: '(compiler)', line: 0, column: 0, message };
  const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
  const written = byFile.get(d.file.fileName);
  if (!written) return { source: d.file.fileName, line: line + 1, column: character + 1, message };
  const { block, offset } = written;
  if (line < offset) {
    return {
      source: block.source,
      line: block.line,
      column: 1,
      message: `${message} (in the prelude import)`,
    };
  }
  return { source: block.source, line: block.line + line - offset, column: character + 1, message };
}

/** The names each prelude module exports, by file. */
function exportedNames(
  files: readonly string[],
  options: ts.CompilerOptions,
  host: ts.CompilerHost,
): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  if (!files.length) return out;
  const program = ts.createProgram({ rootNames: files, options, host });
  const checker = program.getTypeChecker();
  for (const file of files) {
    const source = program.getSourceFile(file);
    const symbol = source && checker.getSymbolAtLocation(source);
    out.set(file, new Set(symbol ? checker.getExportsOfModule(symbol).map((s) => s.name) : []));
  }
  return out;
}

/** Removes what the last check wrote into `dir`, keeping the generated Prisma clients. */
function clearChecked(dir: string): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir)) {
    if (entry.endsWith('.ts') || entry === 'generated')
      rmSync(join(dir, entry), { recursive: true, force: true });
  }
}

/** A tsconfig's options (tsconfig.base.json's), with nothing emitted and no noUncheckedIndexedAccess. */
export function compilerOptions(path: string): ts.CompilerOptions {
  const { config, error } = ts.readConfigFile(path, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, dirname(path));
  // Blocks are what an application writes, so they are checked under `strict` as applications
  // compile, without this repository's extra noUncheckedIndexedAccess (`const [row] = await ...`
  // is the idiom every ORM's docs use).
  return { ...parsed.options, noEmit: true, noUncheckedIndexedAccess: false };
}

/** A compiler host that parses each library file once for both programs. */
function cachingHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const cache = new Map<string, ts.SourceFile | undefined>();
  const original = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    if (fileName.includes('/.doctest/')) return original(fileName, languageVersion, onError, shouldCreate);
    if (!cache.has(fileName)) cache.set(fileName, original(fileName, languageVersion, onError, shouldCreate));
    return cache.get(fileName);
  };
  return host;
}
