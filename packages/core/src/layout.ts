import { InvalidArgumentError, InvalidLayoutError, type LayoutFieldReport } from './errors.js';
import { reservedNameReason } from './reserved-names.js';

/** One node field of a layout (datacenterId, workerId, shardId, serverId...), high to low. */
export interface NodeField<F extends string = string> {
  readonly name: F;
  readonly bits: number;
  /** Bit position of the field's lowest bit inside the id. */
  readonly shift: number;
  /** The largest value the field holds: 2^bits - 1. */
  readonly max: number;
}

/** What {@link defineLayout} takes. `F` is the union of the node field names, inferred from `nodeBits`. */
export interface LayoutSpec<F extends string = string> {
  /** A name for messages and the CLI. Default `"custom"`. */
  name?: string;
  /** Width of the timestamp field (counted in `timeUnitMs` since `epoch`). */
  timestampBits: number;
  /** Node fields, highest first: `{ datacenterId: 5, workerId: 5 }` or `[['datacenterId', 5], ...]`. */
  nodeBits: Readonly<Record<F, number>> | ReadonlyArray<readonly [F, number]>;
  /** Width of the per-time-unit sequence. */
  sequenceBits: number;
  /** Milliseconds per timestamp tick. Default 1; Sonyflake uses 10. */
  timeUnitMs?: number;
  /** Ms since 1970 at which timestamp 0 falls. Default {@link DEFAULT_EPOCH} (2025-01-01T00:00:00Z). */
  epoch?: number;
  /** `'node-sequence'` (default, Twitter): time | node | sequence; `'sequence-node'` (Sonyflake). */
  order?: 'node-sequence' | 'sequence-node';
  /** Allow 64 bits: ids above 2^63-1, for MySQL's `BIGINT UNSIGNED` only. Default false. */
  unsigned?: boolean;
}

/** A validated, frozen layout; `F` is the union of its node field names. */
export interface Layout<F extends string = string> {
  readonly name: string;
  readonly timestampBits: number;
  readonly sequenceBits: number;
  readonly nodeFields: readonly NodeField<F>[];
  readonly nodeBitsTotal: number;
  readonly timeUnitMs: number;
  readonly epoch: number;
  readonly order: 'node-sequence' | 'sequence-node';
  readonly totalBits: number;
  /** True when some ids exceed 2^63-1 (only with `unsigned: true`). */
  readonly unsigned: boolean;
  readonly timestampShift: number;
  readonly sequenceShift: number;
  /** 2^sequenceBits - 1 */
  readonly maxSequence: number;
  /** The largest timestamp field value: 2^timestampBits - 1 (in time units). */
  readonly maxTimestamp: number;
}

/** 2025-01-01T00:00:00.000Z: the default epoch of snowkey's own layouts. */
export const DEFAULT_EPOCH = 1735689600000;

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Builds and validates a layout of at most 63 bits (64 with `unsigned: true`); its node field names
 * become its type, so a misspelt field does not compile.
 *
 * @example
 * const game = defineLayout({ name: 'game', timestampBits: 41, nodeBits: { serverId: 12 }, sequenceBits: 10 });
 * new Snowflake({ layout: game, serverId: 2 });
 */
export function defineLayout<const F extends string = never>(spec: LayoutSpec<F>): Layout<F> {
  if (spec === null || typeof spec !== 'object') {
    throw new InvalidArgumentError(
      'layout',
      'an object like { timestampBits, nodeBits, sequenceBits }',
      spec,
    );
  }
  const name = spec.name ?? 'custom';
  const nodeEntries: Array<readonly [string, number]> = Array.isArray(spec.nodeBits)
    ? [...(spec.nodeBits as ReadonlyArray<readonly [string, number]>)]
    : Object.entries((spec.nodeBits ?? {}) as Record<string, number>);
  const report: LayoutFieldReport[] = [
    { name: 'timestamp', bits: spec.timestampBits },
    ...nodeEntries.map(([n, b]) => ({ name: n, bits: b })),
    { name: 'sequence', bits: spec.sequenceBits },
  ];
  const sum = report.reduce((s, f) => s + (typeof f.bits === 'number' ? f.bits : Number.NaN), 0);
  for (const f of report) {
    if (!Number.isInteger(f.bits) || (f.bits as number) < 1) {
      throw new InvalidLayoutError(`layout field "${f.name}" must be a positive integer width`, report, sum);
    }
  }
  const seen = new Set<string>();
  for (const [n] of nodeEntries) {
    if (typeof n !== 'string' || !NAME.test(n) || seen.has(n)) {
      throw new InvalidLayoutError(
        `node field name ${JSON.stringify(n)} must be a unique identifier (letters, digits, _)`,
        report,
        sum,
      );
    }
    const reserved = reservedNameReason(n);
    if (reserved) {
      throw new InvalidLayoutError(`node field name "${n}" is reserved: it is ${reserved}`, report, sum);
    }
    seen.add(n);
  }
  const unsigned = spec.unsigned === true;
  if (sum > 64) throw new InvalidLayoutError('layout needs more than 64 bits', report, sum);
  if (sum === 64 && !unsigned) {
    throw new InvalidLayoutError(
      'layout uses 64 bits, so ids can exceed 2^63-1 and will not fit a signed BIGINT; pass unsigned: true if your columns are BIGINT UNSIGNED',
      report,
      sum,
    );
  }
  if (spec.timestampBits > 52) {
    throw new InvalidLayoutError('timestamp field wider than 52 bits is not supported', report, sum);
  }
  const timeUnitMs = spec.timeUnitMs ?? 1;
  if (!Number.isInteger(timeUnitMs) || timeUnitMs < 1) {
    throw new InvalidArgumentError(
      'timeUnitMs',
      'a positive integer number of milliseconds',
      spec.timeUnitMs,
    );
  }
  const epoch = spec.epoch ?? DEFAULT_EPOCH;
  if (!Number.isSafeInteger(epoch) || epoch < 0) {
    throw new InvalidArgumentError('epoch', 'a non-negative integer of ms since 1970', spec.epoch);
  }
  const order = spec.order ?? 'node-sequence';
  if (order !== 'node-sequence' && order !== 'sequence-node') {
    throw new InvalidArgumentError('order', "'node-sequence' or 'sequence-node'", spec.order);
  }
  const nodeBitsTotal = nodeEntries.reduce((s, [, b]) => s + b, 0);
  const lowBits = nodeBitsTotal + spec.sequenceBits;
  // node fields are contiguous; with 'sequence-node' they sit at the bottom.
  let cursor = order === 'node-sequence' ? spec.sequenceBits + nodeBitsTotal : nodeBitsTotal;
  const nodeFields = nodeEntries.map(([n, b]) => {
    cursor -= b;
    return Object.freeze({ name: n as F, bits: b, shift: cursor, max: 2 ** b - 1 });
  });
  return Object.freeze({
    name,
    timestampBits: spec.timestampBits,
    sequenceBits: spec.sequenceBits,
    nodeFields: Object.freeze(nodeFields),
    nodeBitsTotal,
    timeUnitMs,
    epoch,
    order,
    totalBits: sum,
    unsigned: sum === 64,
    timestampShift: lowBits,
    sequenceShift: order === 'node-sequence' ? 0 : nodeBitsTotal,
    maxSequence: 2 ** spec.sequenceBits - 1,
    maxTimestamp: 2 ** spec.timestampBits - 1,
  });
}

/** Returns `value` as a {@link Layout}, or throws an {@link InvalidArgumentError} naming `argument`. */
export function assertLayout(value: unknown, argument = 'layout'): Layout {
  if (value === null || typeof value !== 'object' || !Array.isArray((value as Layout).nodeFields)) {
    throw new InvalidArgumentError(argument, 'a layout from defineLayout() or layouts.*', value);
  }
  return value as Layout;
}

/**
 * Returns a copy of `layout` with another epoch (validated).
 *
 * @example
 * const mine = withEpoch(layouts.twitter, Date.UTC(2026, 0, 1));
 */
export function withEpoch<F extends string>(layout: Layout<F>, epoch: number): Layout<F> {
  return defineLayout<F>({ ...layoutSpec(layout), epoch });
}

/**
 * The spec a layout was built from, for copying with changes.
 *
 * @example
 * const wider = defineLayout({ ...layoutSpec(layouts.snowkey), name: 'wide', nodeBits: { workerId: 12 }, sequenceBits: 10 });
 */
export function layoutSpec<F extends string>(layout: Layout<F>): LayoutSpec<F> {
  return {
    name: layout.name,
    timestampBits: layout.timestampBits,
    nodeBits: layout.nodeFields.map((f) => [f.name, f.bits] as const),
    sequenceBits: layout.sequenceBits,
    timeUnitMs: layout.timeUnitMs,
    epoch: layout.epoch,
    order: layout.order,
    unsigned: layout.unsigned,
  };
}

/**
 * The last instant (ms since 1970) a layout can express.
 *
 * @example
 * new Date(layoutEndsAt(layouts.snowkey)).toISOString(); // '2094-09-07T15:47:35.551Z'
 */
export function layoutEndsAt(layout: Layout): number {
  return layout.epoch + (layout.maxTimestamp + 1) * layout.timeUnitMs - 1;
}
