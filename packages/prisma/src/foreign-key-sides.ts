import type { RuntimeDataModel } from './data-model.js';

/**
 * For each model, its relation fields that hold the foreign key: the side whose `@relation` names
 * `fields: [...]`. A row created through such a field is the parent: Prisma inserts it before the
 * row that points at it. Prisma 7's runtime data model does not say which side holds the key, so
 * it is read from the schema text every generated client carries (`_engineConfig.inlineSchema`)
 * and checked against the runtime data model: every relation field must be found there with the
 * same type, and every relation must have one side holding the key, or no side (an implicit
 * many-to-many). When the schema is missing or disagrees, the result is `undefined` and the
 * caller falls back to filling a row before its nested writes.
 *
 * @example
 * foreignKeySides(prisma, readDataModel(prisma))?.get('Match'); // Set { 'player' }
 */
export function foreignKeySides(
  client: unknown,
  dataModel: RuntimeDataModel,
): ReadonlyMap<string, ReadonlySet<string>> | undefined {
  const schema = (client as { _engineConfig?: { inlineSchema?: unknown } } | null)?._engineConfig
    ?.inlineSchema;
  if (typeof schema !== 'string') return undefined;
  const parsed = parseRelationFields(schema);
  const sides = new Map<string, Set<string>>();
  const holders = new Map<string, number>();
  for (const [model, definition] of Object.entries(dataModel.models)) {
    const own = new Set<string>();
    for (const field of definition.fields) {
      if (field.kind !== 'object') continue;
      const found = parsed.get(model)?.get(field.name);
      if (!found || found.type !== field.type) return undefined;
      if (found.holdsKey) own.add(field.name);
      const relation = `${field.relationName ?? ''}|${[model, field.type].sort().join('|')}`;
      holders.set(relation, (holders.get(relation) ?? 0) + (found.holdsKey ? 1 : 0));
    }
    sides.set(model, own);
  }
  // A self-relation lists both of its fields under one name; any other relation has one holder at most.
  if ([...holders.values()].some((n) => n > 1)) return undefined;
  return sides;
}

interface RelationField {
  readonly type: string;
  readonly holdsKey: boolean;
}

/**
 * The fields of every `model` block whose attributes include `@relation`, or whose type is another
 * model: name, base type (without `?` and `[]`) and whether `@relation(...)` names `fields`.
 * Comments and strings are skipped; a field's attributes may span lines inside parentheses.
 */
export function parseRelationFields(schema: string): Map<string, Map<string, RelationField>> {
  const models = new Map<string, Map<string, RelationField>>();
  const text = withoutComments(schema);
  const blocks = /(?:^|\n)\s*model\s+(\w+)\s*\{/g;
  for (let m = blocks.exec(text); m; m = blocks.exec(text)) {
    const body = blockBody(text, blocks.lastIndex);
    const fields = new Map<string, RelationField>();
    for (const declaration of declarations(body)) {
      const match = /^(\w+)\s+(\w+)(?:\[\]|\?)?(.*)$/s.exec(declaration);
      if (!match) continue;
      const [, name, type, attributes] = match as unknown as [string, string, string, string];
      const relation = /@relation\s*\(/.exec(attributes);
      const args = relation ? balanced(attributes, relation.index + relation[0].length - 1) : '';
      fields.set(name, { type, holdsKey: /\bfields\s*:\s*\[\s*\w/.test(args) });
    }
    models.set(m[1]!, fields);
  }
  return models;
}

/** The schema with `//` comments blanked out (strings kept, so a `//` inside one survives). */
function withoutComments(schema: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < schema.length; i++) {
    const c = schema[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += schema[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '/' && schema[i + 1] === '/') {
      while (i < schema.length && schema[i] !== '\n') i++;
      out += '\n';
    } else {
      out += c;
    }
  }
  return out;
}

/** The text between the `{` just before `start` and its matching `}`. */
function blockBody(text: string, start: number): string {
  let depth = 1;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return text.slice(start, i);
  }
  return text.slice(start);
}

/** One declaration per line, a line continuing while a parenthesis or bracket is open; no `@@` lines. */
function declarations(body: string): string[] {
  const out: string[] = [];
  let current = '';
  let depth = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (inString) {
      if (c === '\\') current += body[i++] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === '\n' && depth <= 0) {
      out.push(current.trim());
      current = '';
      continue;
    }
    current += c;
  }
  out.push(current.trim());
  return out.filter((d) => d && !d.startsWith('@@'));
}

/** The text inside the parentheses that open at `open`. */
function balanced(text: string, open: number): string {
  let depth = 0;
  let inString = false;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return text.slice(open + 1, i);
  }
  return text.slice(open + 1);
}
