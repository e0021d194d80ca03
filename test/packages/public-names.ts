import ts from 'typescript';

/**
 * Every name a declaration file exports, types and values alike, read with the TypeScript
 * compiler itself so re-exports and `export *` are resolved as an editor would.
 *
 * @example
 * declaredNames('packages/core/dist/index.d.ts'); // ['ClockMovedBackwardsError', 'Clock', ...]
 */
export function declaredNames(declarationFile: string): string[] {
  const program = ts.createProgram([declarationFile], { noEmit: true, skipLibCheck: true });
  const source = program.getSourceFile(declarationFile);
  const checker = program.getTypeChecker();
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error(`${declarationFile} is not a module`);
  return checker
    .getExportsOfModule(moduleSymbol)
    .map((s) => s.name)
    .sort();
}
