import { InvalidArgumentError, type SqlDialect } from '@snowkey/core';
import { concat, leftChars, stringLiteral } from './sql.js';

/**
 * The rename template of a merge when none is given: `Aria` from S2 becomes `Aria.S2`, then
 * `Aria.S2.2`, `Aria.S2.3`... while the value is taken.
 */
export const DEFAULT_RENAME_TEMPLATE = '{name}.{label}';

/**
 * Checks a rename template: `{name}` once (the value), and any of `{label}` (the source's label,
 * `S2`), `{server}` (the label's digits, `2`) and `{n}` (the attempt, 1, 2, ...).
 */
export function checkRenameTemplate(template: unknown): asserts template is string {
  const expected =
    'a text with {name} once and any of {label}, {server}, {n}, e.g. "{name}.{label}", "S{server}.{name}", "{name}#{n}"';
  if (typeof template !== 'string') throw new InvalidArgumentError('renameTemplate', expected, template);
  const names = template.match(/\{name\}/g)?.length ?? 0;
  const unknown = template.replace(/\{(name|label|server|n)\}/g, '').match(/\{[^}]*\}/);
  if (names !== 1 || unknown) throw new InvalidArgumentError('renameTemplate', expected, template);
}

/** The template's text around `{name}` for attempt `n`. */
function parts(template: string, label: string, n: number): { before: string; after: string } {
  const server = /\d+/.exec(label)?.[0] ?? label;
  let t = template.includes('{n}') ? template : n === 1 ? template : `${template}.{n}`;
  t = t.replaceAll('{label}', label).replaceAll('{server}', server).replaceAll('{n}', String(n));
  const [before, after] = t.split('{name}') as [string, string];
  return { before, after };
}

const length = (s: string) => [...s].length;

/**
 * The value a renamed row from source `label` gets at attempt `n`. With `maxLength`, the original is
 * cut (by code points, never inside a character) so the whole fits the column.
 *
 * @example
 * renamed('Aria', 'S2', 1);                        // 'Aria.S2'
 * renamed('Aria', 'S2', 2);                        // 'Aria.S2.2'
 * renamed('Abcdefghij', 'S2', 1, 8);               // 'Abcde.S2'
 * renamed('Aria', 'S2', 1, null, 'S{server}.{name}'); // 'S2.Aria'
 */
export function renamed(
  value: string,
  label: string,
  n: number,
  maxLength?: number | null,
  template = DEFAULT_RENAME_TEMPLATE,
): string {
  const { before, after } = parts(template, label, n);
  if (maxLength === undefined || maxLength === null) return before + value + after;
  const room = maxLength - length(before) - length(after);
  if (room < 1) {
    throw new InvalidArgumentError(
      'maxLength',
      `more than ${length(before) + length(after)} (the rename "${before}{name}${after}")`,
      maxLength,
    );
  }
  return before + [...value].slice(0, room).join('') + after;
}

/** Room the template leaves for the value in a column of `maxLength` at attempt `n` (null: no limit). */
export function renameRoom(
  template: string,
  label: string,
  n: number,
  maxLength: number | null,
): number | null {
  if (maxLength === null) return null;
  const { before, after } = parts(template, label, n);
  return maxLength - length(before) - length(after);
}

/** {@link renamed} as a SQL expression of the text expression `value`. */
export function renamedSql(
  dialect: SqlDialect,
  value: string,
  label: string,
  n: number,
  maxLength: number | null,
  template: string,
): string {
  const { before, after } = parts(template, label, n);
  const room = renameRoom(template, label, n, maxLength);
  if (room !== null && room < 1) {
    throw new InvalidArgumentError(
      'maxLength',
      `more than ${length(before) + length(after)} (the rename "${before}{name}${after}")`,
      maxLength,
    );
  }
  const body = room === null ? value : leftChars(dialect, value, room);
  return concat(
    dialect,
    [before ? stringLiteral(dialect, before) : '', body, after ? stringLiteral(dialect, after) : ''].filter(
      Boolean,
    ),
  );
}
