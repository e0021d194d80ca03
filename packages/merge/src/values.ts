import type { SqlValue } from './database.js';

/**
 * A value in one canonical text form, so the same value read from two databases of different
 * kinds compares equal: integers as decimal digits (a `bigint` 5 and a Number 5 agree), booleans
 * as 1/0, dates as ISO 8601, bytes as hex, JSON documents as JSON; null stays null.
 */
export function canonical(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v).toString() : String(v);
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (typeof v === 'string') return v;
  if (v instanceof Date) return v.toISOString();
  if (v instanceof Uint8Array) return `x${Buffer.from(v).toString('hex')}`;
  return JSON.stringify(v);
}

/**
 * A row key (one value per key column) as text that {@link decodeKey} turns back into values of
 * the same kinds: the form progress rows, rename records and mappings store keys in.
 */
export function encodeKey(values: readonly unknown[]): string {
  return JSON.stringify(values.map(tagged));
}

/** The key values {@link encodeKey} wrote. */
export function decodeKey(text: string): SqlValue[] {
  return (JSON.parse(text) as string[]).map((t) => {
    const body = t.slice(2);
    switch (t[0]) {
      case 'i':
        return BigInt(body);
      case 'f':
        return Number(body);
      case 'd':
        return new Date(body);
      case 'b':
        return Buffer.from(body, 'hex');
      case 'n':
        return null;
      default:
        return body;
    }
  });
}

function tagged(v: unknown): string {
  if (v === null || v === undefined) return 'n:';
  if (typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'boolean') {
    return `i:${canonical(v)}`;
  }
  if (typeof v === 'number') return `f:${v}`;
  if (v instanceof Date) return `d:${v.toISOString()}`;
  if (v instanceof Uint8Array) return `b:${Buffer.from(v).toString('hex')}`;
  return `s:${String(v)}`;
}

/**
 * A driver value as the engine writes it back: JSON documents stay objects (the clients write
 * them as text), everything else as it is.
 */
export function asSqlValue(v: unknown): SqlValue {
  return v === undefined ? null : (v as SqlValue);
}
