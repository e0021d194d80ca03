import { InvalidArgumentError } from './errors.js';

/** An optional non-negative integer number of ms, or `fallback` when absent. */
export function nonNegativeMs(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new InvalidArgumentError(name, 'a non-negative integer number of ms', value);
  }
  return value;
}

/** An optional positive integer number of ms, or `fallback` when absent. */
export function positiveMs(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new InvalidArgumentError(name, 'a positive integer number of ms', value);
  }
  return value;
}

/** An optional boolean, or `fallback` when absent. */
export function optionalBoolean(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new InvalidArgumentError(name, 'a boolean', value);
  return value;
}
