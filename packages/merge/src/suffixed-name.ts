import { InvalidArgumentError } from '@snowkey/core';

/**
 * The value a renamed row from source `label` gets: `Aria` -> `Aria.S2`, then `Aria.S2.2`,
 * `Aria.S2.3`... when that is taken too. With `maxLength`, the original is cut (by code points,
 * never inside a character) so the suffix fits the column.
 *
 * @example
 * suffixedName('Aria', 'S2', 1);          // 'Aria.S2'
 * suffixedName('Aria', 'S2', 2);          // 'Aria.S2.2'
 * suffixedName('Abcdefghij', 'S2', 1, 8); // 'Abcde.S2'
 */
export function suffixedName(
  value: string,
  label: string,
  attempt: number,
  maxLength?: number | null,
): string {
  const suffix = attempt === 1 ? `.${label}` : `.${label}.${attempt}`;
  if (maxLength === undefined || maxLength === null) return value + suffix;
  if (maxLength <= suffix.length) {
    throw new InvalidArgumentError(
      'maxLength',
      `more than ${suffix.length} (the suffix ${suffix})`,
      maxLength,
    );
  }
  return [...value].slice(0, maxLength - suffix.length).join('') + suffix;
}
