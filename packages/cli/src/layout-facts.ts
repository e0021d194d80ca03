import { type Layout, layoutEndsAt } from '@snowkey/core';

/** What a layout allows, computed from its widths, time unit and epoch. */
export interface LayoutFacts {
  readonly name: string;
  readonly totalBits: number;
  readonly epoch: number;
  readonly timeUnitMs: number;
  /** Ids one node can issue per millisecond (25.6 for Sonyflake's 256 per 10 ms). */
  readonly idsPerMsPerNode: number;
  readonly idsPerSecondPerNode: number;
  /** Distinct node ids: 2^(all node bits). */
  readonly nodeCount: number;
  /** Years from the epoch to the end of the timestamp field (365.2425-day years). */
  readonly years: number;
  /** The last ms since 1970 the layout can express. */
  readonly endsAt: number;
  /** From this ms since 1970 every id is above 2^53-1 (Number.MAX_SAFE_INTEGER); null if never. */
  readonly passes2pow53At: number | null;
  /** From this ms since 1970 every id is above 2^63-1 (signed BIGINT); null if never. */
  readonly passes2pow63At: number | null;
}

const YEAR_MS = 365.2425 * 24 * 3600 * 1000;

/**
 * Computes the capacity and the dates of a layout: ids per ms per node, node count, years of
 * range, the day it runs out, and the days its ids outgrow a JS Number and a signed BIGINT.
 */
export function layoutFacts(layout: Layout): LayoutFacts {
  const perUnit = layout.maxSequence + 1;
  return {
    name: layout.name,
    totalBits: layout.totalBits,
    epoch: layout.epoch,
    timeUnitMs: layout.timeUnitMs,
    idsPerMsPerNode: perUnit / layout.timeUnitMs,
    idsPerSecondPerNode: (perUnit * 1000) / layout.timeUnitMs,
    nodeCount: 2 ** layout.nodeBitsTotal,
    years: ((layout.maxTimestamp + 1) * layout.timeUnitMs) / YEAR_MS,
    endsAt: layoutEndsAt(layout),
    passes2pow53At: passesAt(layout, 53),
    passes2pow63At: passesAt(layout, 63),
  };
}

/**
 * The first instant from which every id is at least 2^bits. Ids of time unit t are below
 * 2^bits exactly while t < 2^(bits - timestampShift), whatever their node and sequence.
 */
function passesAt(layout: Layout, bits: number): number | null {
  const unit = bits >= layout.timestampShift ? 2 ** (bits - layout.timestampShift) : 1;
  return unit > layout.maxTimestamp ? null : layout.epoch + unit * layout.timeUnitMs;
}
