import { InvalidArgumentError } from '@snowkey/core';

/**
 * Parses an integer flag strictly: digits only, so `--count 1e3`, `--count -1` and `--count 0x10`
 * are refused with the flag's name instead of turning into surprising numbers.
 */
export function integerFlag(flag: string, raw: string, expected = 'a non-negative integer'): number {
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw new InvalidArgumentError(flag, expected, raw);
  }
  return Number(raw);
}

/** Parses `--epoch`: ms since 1970 (digits) or an ISO 8601 date such as `2025-01-01T00:00:00Z`. */
export function epochFlag(raw: string): number {
  return instantFlag('--epoch', raw);
}

/** An instant given as ms since 1970 (digits) or an ISO 8601 date; `flag` names it in errors. */
export function instantFlag(flag: string, raw: string): number {
  const expected = 'ms since 1970 or an ISO date such as 2025-01-01T00:00:00Z';
  if (/^\d+$/.test(raw)) return integerFlag(flag, raw, expected);
  const ms = /^\d{4}-\d{2}-\d{2}/.test(raw) ? Date.parse(raw) : Number.NaN;
  if (!Number.isFinite(ms)) throw new InvalidArgumentError(flag, expected, raw);
  return ms;
}

/** `workerId` -> `worker-id`: node field names become flags. */
export function kebabCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

/** Collects a repeatable flag's values in order. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
