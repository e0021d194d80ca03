import ts from 'typescript';

/**
 * The identifiers a fragment refers to without declaring them at its top level: the names its
 * prelude may supply. Property names (`a.b`, `{ b: 1 }`), labels and the names a declaration
 * introduces are not references; a shorthand property (`{ b }`) is. Names declared inside a
 * function or block still count: importing one that is also declared there is harmless, since the
 * inner declaration shadows it.
 *
 * @example
 * freeNames('const id = gen.nextId(); sk.insert("t", { id, name });'); // ['gen', 'name', 'sk']
 */
export function freeNames(code: string): string[] {
  const source = ts.createSourceFile('fragment.ts', code, ts.ScriptTarget.Latest, true);
  const declared = new Set<string>();
  for (const statement of source.statements) for (const name of topLevelNames(statement)) declared.add(name);
  const used = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && isReference(node)) used.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...used].filter((n) => !declared.has(n)).sort();
}

function topLevelNames(statement: ts.Statement): string[] {
  if (ts.isImportDeclaration(statement)) {
    const clause = statement.importClause;
    if (!clause) return [];
    const names = clause.name ? [clause.name.text] : [];
    const bindings = clause.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) names.push(bindings.name.text);
    if (bindings && ts.isNamedImports(bindings)) names.push(...bindings.elements.map((e) => e.name.text));
    return names;
  }
  if (ts.isImportEqualsDeclaration(statement)) return [statement.name.text];
  if (ts.isVariableStatement(statement)) {
    return statement.declarationList.declarations.flatMap((d) => bindingNames(d.name));
  }
  if (
    (ts.isFunctionDeclaration(statement) ||
      ts.isClassDeclaration(statement) ||
      ts.isInterfaceDeclaration(statement) ||
      ts.isTypeAliasDeclaration(statement) ||
      ts.isEnumDeclaration(statement) ||
      ts.isModuleDeclaration(statement)) &&
    statement.name &&
    ts.isIdentifier(statement.name)
  ) {
    return [statement.name.text];
  }
  return [];
}

function bindingNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((e) => (ts.isOmittedExpression(e) ? [] : bindingNames(e.name)));
}

/** False for an identifier that names a property, a member, a label or what a declaration declares. */
function isReference(id: ts.Identifier): boolean {
  const parent = id.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === id) return false;
  if (ts.isQualifiedName(parent) && parent.right === id) return false;
  if (ts.isPropertyAssignment(parent) && parent.name === id) return false;
  if (ts.isShorthandPropertyAssignment(parent)) return true;
  if (
    (ts.isPropertySignature(parent) ||
      ts.isPropertyDeclaration(parent) ||
      ts.isMethodDeclaration(parent) ||
      ts.isMethodSignature(parent) ||
      ts.isGetAccessor(parent) ||
      ts.isSetAccessor(parent) ||
      ts.isEnumMember(parent) ||
      ts.isPropertyAccessExpression(parent)) &&
    parent.name === id
  ) {
    return false;
  }
  if (ts.isBindingElement(parent) && parent.propertyName === id) return false;
  if (ts.isLabeledStatement(parent) || ts.isBreakOrContinueStatement(parent)) return false;
  if (ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent) || ts.isImportClause(parent)) return false;
  if (ts.isNamespaceImport(parent) || ts.isImportEqualsDeclaration(parent)) return false;
  if (
    (ts.isVariableDeclaration(parent) ||
      ts.isParameter(parent) ||
      ts.isBindingElement(parent) ||
      ts.isFunctionDeclaration(parent) ||
      ts.isFunctionExpression(parent) ||
      ts.isClassDeclaration(parent) ||
      ts.isClassExpression(parent) ||
      ts.isInterfaceDeclaration(parent) ||
      ts.isTypeAliasDeclaration(parent) ||
      ts.isTypeParameterDeclaration(parent) ||
      ts.isEnumDeclaration(parent) ||
      ts.isModuleDeclaration(parent)) &&
    (parent as { name?: ts.Node }).name === id
  ) {
    return false;
  }
  if (ts.isJsxAttribute(parent) && parent.name === id) return false;
  return true;
}
