import { WorkerIdLeaseError } from '@snowkey/core';

/**
 * What etcd keeps of a node id beyond its etcd lease, in `<prefix>mark/<nodeId>` (a key with no
 * etcd lease, so it outlives every holder). Times are ms since 1970 by the holder's clock.
 */
export interface LeaseMark {
  /** The holder's token; `null` once it released the id cleanly. */
  readonly holder: string | null;
  /** No id of this node id has a later timestamp. Written before the holder may use it. */
  readonly ceiling: number;
  /** The highest timestamp issued, as of the last renewal or release. */
  readonly highWater: number;
  /** When the holder's fence stops it, unless renewed (0 once released). */
  readonly expiresAt: number;
  readonly renewedAt: number;
}

/** The two keys of a node id: the holder's (bound to its etcd lease) and the mark (no lease). */
export interface NodeKeys {
  readonly holder: string;
  readonly mark: string;
}

export function nodeKeys(prefix: string, nodeId: number): NodeKeys {
  return { holder: `${prefix}holder/${nodeId}`, mark: `${prefix}mark/${nodeId}` };
}

/** The node id a key of `prefix` belongs to, and which of its keys it is. */
export function parseNodeKey(
  prefix: string,
  key: string,
): { kind: 'holder' | 'mark'; nodeId: number } | undefined {
  if (!key.startsWith(prefix)) return undefined;
  const m = /^(holder|mark)\/(\d{1,10})$/.exec(key.slice(prefix.length));
  if (!m) return undefined;
  return { kind: m[1] as 'holder' | 'mark', nodeId: Number(m[2]) };
}

/**
 * Where the next holder of a node id may start: after the high-water mark of a clean release,
 * else after every timestamp its last holder could have used (its ceiling).
 */
export function startAfterOf(mark: LeaseMark | undefined): number {
  if (!mark) return 0;
  return mark.holder === null ? mark.highWater : Math.max(mark.ceiling, mark.highWater);
}

export function encodeMark(mark: LeaseMark): string {
  return JSON.stringify(mark);
}

export function decodeMark(key: string, raw: string): LeaseMark {
  let v: Partial<Record<keyof LeaseMark, unknown>>;
  try {
    v = JSON.parse(raw) as typeof v;
  } catch (err) {
    throw badMark(key, raw, err);
  }
  const ints = [v.ceiling, v.highWater, v.expiresAt, v.renewedAt];
  if (
    v === null ||
    typeof v !== 'object' ||
    !(v.holder === null || typeof v.holder === 'string') ||
    !ints.every((n) => typeof n === 'number' && Number.isSafeInteger(n))
  ) {
    throw badMark(key, raw);
  }
  return v as LeaseMark;
}

function badMark(key: string, raw: string, cause?: unknown): WorkerIdLeaseError {
  return new WorkerIdLeaseError(
    `etcd key ${key} holds ${JSON.stringify(raw.slice(0, 200))}, not a snowkey lease mark ({ holder, ceiling, highWater, expiresAt, renewedAt }); another program writes under this prefix`,
    key,
    'not a lease mark',
    cause === undefined ? undefined : { cause },
  );
}
