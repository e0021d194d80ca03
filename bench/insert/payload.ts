import type { BenchRow } from './adapters/adapter-bench.js';

/** The payload of row `i`: the same for every key kind, so only the key differs between tables. */
export function payloadRow(i: number): [ownerId: bigint, name: string, score: number, createdAt: bigint] {
  // A fixed pseudo-random spread (Knuth's multiplicative hash) keeps values varied but repeatable.
  const h = Math.imul(i + 1, 2654435761) >>> 0;
  return [
    400_000_000_000_000_000n + BigInt(h),
    `player-${i.toString(36)}`,
    h % 100_000,
    1_767_225_600_000n + BigInt(i),
  ];
}

/** Row `i` as a raw load binds it: the key (if any), then the payload, one array literal either way. */
export function loadRow(i: number, key: unknown): unknown[] {
  const [ownerId, name, score, createdAt] = payloadRow(i);
  return key === undefined ? [ownerId, name, score, createdAt] : [key, ownerId, name, score, createdAt];
}

/** Rows `offset` .. `offset + count - 1` as the ORMs take them (camelCase properties). */
export function benchRows(count: number, offset: number): BenchRow[] {
  return Array.from({ length: count }, (_, i) => {
    const [ownerId, name, score, createdAt] = payloadRow(offset + i);
    return { ownerId, name, score, createdAt };
  });
}
