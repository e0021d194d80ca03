import { InvalidArgumentError } from 'commander';

/** A commander parser for a positive integer (`1_000_000` allowed). */
export function count(raw: string): number {
  const n = Number(raw.replace(/_/g, ''));
  if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('not a positive integer');
  return n;
}

/** A commander parser for a comma-separated list drawn from `allowed`. */
export const listOf =
  <T extends string>(allowed: readonly T[]) =>
  (raw: string): T[] => {
    const items = raw.split(',').map((s) => s.trim()) as T[];
    const bad = items.filter((i) => !allowed.includes(i));
    if (bad.length)
      throw new InvalidArgumentError(`unknown ${bad.join(', ')} (choose from ${allowed.join(', ')})`);
    return items;
  };

/** A progress line on stderr, with the time. */
export const progress = (line: string) =>
  process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
