import type { FreeResult, LeaseRecord } from '@snowkey/core/adapter';
import { table } from './merge-report.js';

const iso = (ms: number | null) => (ms === null || ms <= 0 ? '—' : new Date(ms).toISOString());

/** `in 12 s`, `3 min ago`: how far `ms` is from `now`. */
export function relative(ms: number, now: number): string {
  const d = ms - now;
  const a = Math.abs(d);
  const text =
    a < 1000
      ? `${a} ms`
      : a < 120_000
        ? `${Math.round(a / 1000)} s`
        : a < 7_200_000
          ? `${Math.round(a / 60_000)} min`
          : `${Math.round(a / 3_600_000)} h`;
  return d >= 0 ? `in ${text}` : `${text} ago`;
}

/** A lease as JSON: times as ISO strings, null when unknown or none (0 in the table). */
export function leaseJson(r: LeaseRecord) {
  const time = (ms: number | null) => (ms === null || ms <= 0 ? null : new Date(ms).toISOString());
  return {
    nodeId: r.nodeId,
    status: r.status,
    holder: r.holder,
    label: r.label,
    acquiredAt: time(r.acquiredAt),
    renewedAt: time(r.renewedAt),
    expiresAt: time(r.expiresAt),
    ceiling: time(r.ceiling),
    highWater: time(r.highWater),
  };
}

/** The leases as a table, then how many node ids of the layout are free. */
export function formatLeases(
  records: readonly LeaseRecord[],
  where: string,
  now: number,
  range: { total: number; free: number; layout: string },
): string {
  const rows = records.map((r) => [
    r.nodeId,
    r.status,
    r.label ?? '—',
    r.holder === null ? '—' : shortToken(r.holder),
    iso(r.acquiredAt),
    r.status === 'held'
      ? `${iso(r.expiresAt)} (${relative(r.expiresAt, now)})`
      : r.expiresAt > 0
        ? iso(r.expiresAt)
        : '—',
    iso(r.highWater),
  ]);
  const head = ['node id', 'status', 'host/pid', 'holder', 'acquired', 'expires', 'high-water mark'];
  return `${where}\n${table(head, rows)}\nfree node ids: ${range.free.toLocaleString('en-US')} of ${range.total.toLocaleString('en-US')} (layout ${range.layout})\n`;
}

/** One lease, field by field. */
export function formatLease(r: LeaseRecord, now: number): string {
  const lines: [string, string][] = [
    ['node id', String(r.nodeId)],
    ['status', r.status],
    ['host/pid', r.label ?? '—'],
    ['holder', r.holder ?? '—'],
    ['acquired', iso(r.acquiredAt)],
    ['renewed', iso(r.renewedAt)],
    ['expires', r.expiresAt > 0 ? `${iso(r.expiresAt)} (${relative(r.expiresAt, now)})` : '—'],
    ['ceiling', iso(r.ceiling)],
    ['high-water mark', iso(r.highWater)],
  ];
  return `${lines.map(([k, v]) => `${k.padEnd(15)}  ${v}`).join('\n')}\n`;
}

/** What `free` did, in one sentence. */
export function formatFree(nodeId: number, result: FreeResult): string {
  const after =
    result.nextStartsAfter === undefined
      ? ''
      : ` Its next holder starts after ${iso(result.nextStartsAfter)}.`;
  switch (result.outcome) {
    case 'never-used':
      return `node id ${nodeId} was never leased: it is free.\n`;
    case 'already-free':
      return `node id ${nodeId} is already free.${after}\n`;
    case 'freed':
      return `node id ${nodeId} freed (it had expired).${after}\n`;
    case 'evicted':
      return `node id ${nodeId} evicted: its holder stops issuing ids at its next renewal, and the id frees itself at ${iso(result.before!.ceiling)}.${after}\n`;
  }
}

/** The random part of a holder token, shortened: enough to tell two holders apart. */
function shortToken(holder: string): string {
  const last = holder.slice(holder.lastIndexOf('/') + 1);
  return last.length > 8 ? `${last.slice(0, 8)}…` : last;
}
