import { InvalidArgumentError } from 'commander';

/** A commander parser for a positive integer option (`_` separators allowed: `1_000_000`). */
export const positiveCount = (name: string) => (raw: string) => {
  const n = Number(raw.replace(/_/g, ''));
  if (!Number.isSafeInteger(n) || n < 1)
    throw new InvalidArgumentError(`${name} must be a positive integer (received ${raw})`);
  return n;
};

/** A commander parser for a comma-separated list whose items must be among `allowed`. */
export const listOf =
  <T extends string>(allowed: readonly T[]) =>
  (raw: string): T[] => {
    const items = raw.split(',').map((s) => s.trim()) as T[];
    const bad = items.filter((i) => !allowed.includes(i));
    if (bad.length)
      throw new InvalidArgumentError(`unknown: ${bad.join(', ')} (choose from ${allowed.join(', ')})`);
    return items;
  };

/** A progress line on stderr, with the time, unless `quiet`. */
export const progressTo = (quiet?: boolean) => (line: string) => {
  if (!quiet) process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
};
