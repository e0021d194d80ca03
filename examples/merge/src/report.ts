import type { ProgressEvent } from '@snowkey/merge';
import type { AutoIncrementContrastResult } from './autoincrement-contrast.js';
import { GAME_TABLES } from './game-schema.js';
import type { GameVerification } from './merge-game.js';
import type { MergeScenarioResult } from './merge-scenario.js';
import type { SegmentPhase } from './segment-contrast.js';
import type { TicketPhase } from './ticket-server-contrast.js';

const n = (x: number) => x.toLocaleString('en-US');
const rate = (rows: number, ms: number) => (ms > 0 ? n(Math.round((rows * 1000) / ms)) : '-');
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const markOk = (ok: boolean) => (ok ? 'ok ' : 'FAIL');
/** In a contrast, a check that does not hold is what goes wrong without snowkey, not a failure of the demo. */
const markBroke = (ok: boolean) => (ok ? 'ok   ' : 'broke');
/** Shard rows not in the merged database as they were: missing, changed, or left out on a key collision. */
const rowsLost = (v: GameVerification) =>
  v.tables.reduce((a, t) => a + t.missing + t.different + t.leftOut, 0);

/**
 * Lays out rows of cells as aligned columns (numbers right-aligned, with thousands separators).
 *
 * @example
 * table([['table', 'rows'], ['players', 3000]]); // '   table    rows\n   players  3,000'
 */
export function table(rows: readonly (readonly (string | number)[])[], indent = '   '): string {
  const cells = rows.map((r) => r.map((c) => (typeof c === 'number' ? n(c) : c)));
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return cells
    .map(
      (r, ri) =>
        indent +
        r
          .map((c, i) =>
            ri > 0 && typeof rows[ri]![i] === 'number' ? c.padStart(widths[i]!) : c.padEnd(widths[i]!),
          )
          .join('  ')
          .trimEnd(),
    )
    .join('\n');
}

/**
 * The play of every server as text: rows per table, time and rate.
 *
 * @example
 * console.log(formatPlayReport(result.plays));
 */
export function formatPlayReport(plays: MergeScenarioResult['plays']): string {
  const tableNames = GAME_TABLES.map((t) => t.name);
  const playRows = plays.map((p) => [
    p.label,
    p.adapter,
    ...tableNames.map((t) => p.rows[t as keyof typeof p.rows]),
    p.totalRows,
    secs(p.elapsedMs),
    rate(p.totalRows, p.elapsedMs),
  ]);
  return [
    '1. Play: ids assigned in the application before the INSERT (layouts.gameServer, serverId = server)',
    table([['server', 'adapter', ...tableNames, 'rows', 'time', 'rows/s'], ...playRows]),
  ].join('\n');
}

/**
 * The merge and its verification as text (the play is {@link formatPlayReport}).
 *
 * @example
 * console.log(formatMergeReport(result));
 */
export function formatMergeReport(result: MergeScenarioResult): string {
  const { merge, verification: v } = result;
  const out = [
    `2. Merge ${result.shards.map((s) => s.label).join(' + ')} -> ${result.target.label}: tables in foreign-key order, keyset batches, one transaction per batch`,
    `   ${n(merge.run.copied)} rows in ${secs(merge.elapsedMs)} = ${rate(merge.run.copied, merge.elapsedMs)} rows/s, ${n(merge.batches)} batches, ${n(merge.totals.collisions)} key collisions, ${n(merge.totals.renames)} renames (@snowkey/merge)`,
    '',
    '3. Verify (every row re-read from the shards and the merged database)',
    formatVerification(v, true),
  ];
  return out.join('\n');
}

/**
 * The checks of a verification: rows per table before and after, then one line per check.
 *
 * @example
 * console.log(formatVerification(v, true));
 */
export function formatVerification(v: GameVerification, withRenames: boolean, contrast = false): string {
  const mark = contrast ? markBroke : markOk;
  const labels = Object.keys(v.tables[0]?.sourceRows ?? {});
  const sum = (t: GameVerification['tables'][number]) =>
    Object.values(t.sourceRows).reduce((a, b) => a + b, 0);
  const lostOf = (t: GameVerification['tables'][number]) => t.missing + t.different + t.leftOut;
  const rows = v.tables.map((t) => [
    t.table,
    ...labels.map((l) => t.sourceRows[l] ?? 0),
    sum(t),
    t.targetRows,
    lostOf(t),
    t.leftOut,
  ]);
  const lost = v.tables.reduce((a, t) => a + lostOf(t), 0);
  const shared = v.tables.reduce((a, t) => a + t.leftOut, 0);
  const misattached = v.tables.reduce((a, t) => a + t.misattached, 0);
  const unexplained = v.tables.reduce((a, t) => a + t.different, 0);
  const dangling = Object.values(v.dangling).reduce((a, b) => a + b, 0);
  const counts = v.tables.every((t) => t.targetRows === sum(t));
  const lines = [
    table([['table', ...labels, 'sum', 'merged', 'lost', 'shared keys'], ...rows]),
    '',
    `   [${mark(counts && lost === 0)}] every shard row is in the merged database exactly once (${n(lost)} lost or changed)`,
    `   [${mark(shared === 0)}] key collisions: ${n(shared)} rows whose id an earlier shard holds too`,
    `   [${mark(dangling === 0 && misattached === 0)}] every foreign key resolves (${Object.keys(v.dangling).length} foreign keys, ${n(dangling)} dangling, ${n(misattached)} now pointing at another server's row)`,
  ];
  if (v.wrongOrigin !== null) {
    lines.push(
      `   [${mark(v.wrongOrigin === 0)}] every id still decodes to the server it was born on (${n(v.wrongOrigin)} do not)`,
    );
  }
  lines.push(
    `   [${mark(unexplained === 0)}] every rename recorded (${n(v.renames.length)} in snowkey_merge_renames, ${n(unexplained)} rows changed without a record)`,
  );
  if (withRenames && v.renames.length > 0) {
    const shown = v.renames
      .slice(0, 8)
      .map((r) => [r.table, r.oldName, '->', r.newName, `born on ${r.source}`, `id ${r.id}`]);
    lines.push(
      `   renames, a name already taken by an earlier server's row getting this server's suffix${v.renames.length > shown.length ? ` (the first ${shown.length} of ${n(v.renames.length)})` : ''}:`,
    );
    lines.push(table(shown, '     '));
  }
  return lines.join('\n');
}

/**
 * The AUTO_INCREMENT contrast as text.
 *
 * @example
 * console.log(formatAutoIncrementReport(contrast));
 */
export function formatAutoIncrementReport(r: AutoIncrementContrastResult): string {
  const recorded = Object.fromEntries(r.verification.tables.map((t) => [t.table, t.leftOut]));
  const perTable = GAME_TABLES.filter((t) => recorded[t.name])
    .map((t) => `${t.name} ${n(recorded[t.name]!)}`)
    .join(', ');
  return [
    `4. What goes wrong without snowkey: AUTO_INCREMENT keys (every server counts 1, 2, 3...)`,
    `   copying S2's first player as it is: ${r.plainCopyError === null ? 'accepted' : `the database refuses it, S1 already holds its id (${r.plainCopyError})`}`,
    `   the merge met ${n(r.merge.totals.collisions)} key collisions, rows whose id the merged database already held (${perTable || 'none'});`,
    '   it left them out and recorded them in snowkey_merge_collisions',
    formatVerification(r.verification, false, true),
    `   -> the fix, snowkey rekey: each shard copied with snowkey ids of its server (every reference rewritten,`,
    `      old ids kept in snowkey_rekey_map), then merged: ${n(r.rekeyed.rekeyedRows)} rows re-keyed, ${n(r.rekeyed.rowsMerged)} merged,`,
    `      ${n(r.rekeyed.collisions)} key collisions, ${n(r.rekeyed.renames)} renames; [${markOk(r.rekeyed.ok)}] verified${r.rekeyed.ok ? '' : `: ${r.rekeyed.problems.join('; ')}`}`,
  ].join('\n');
}

/**
 * The ticket-server contrast as text.
 *
 * @example
 * console.log(formatTicketReport(phases));
 */
export function formatTicketReport(phases: readonly TicketPhase[]): string {
  const rows = phases.map((p) => [
    p.title,
    p.servers.map((s) => `S${s}`).join('+'),
    p.merge.totals.copied,
    p.merge.totals.collisions,
    rowsLost(p.verification),
    p.verification.ok ? 'clean' : 'BROKEN',
  ]);
  return [
    `5. What goes wrong without snowkey: ticket-server keys (server k of N issues k, k+N, k+2N...)`,
    table([['phase', 'servers', 'rows merged', 'collisions', 'rows lost', 'result'], ...rows]),
    `   A fixed number of servers merges cleanly. A third server has no free offset under step 2; with step 3`,
    `   it issues 3, 6, 9..., keys servers 1 and 2 already used. Snowflake keys carry the server id in`,
    `   their own bits (4096 servers in layouts.gameServer), so adding a server changes nothing.`,
  ].join('\n');
}

/**
 * The segment contrast as text: each way of running the counters, its merge, the ids each server
 * issued, and what the verification found wrong.
 *
 * @example
 * console.log(formatSegmentReport(phases));
 */
export function formatSegmentReport(phases: readonly SegmentPhase[]): string {
  const rows = phases.map((p) => [
    p.title,
    p.shards.map((s) => s.label).join('+'),
    p.merge.totals.copied,
    p.merge.totals.collisions,
    rowsLost(p.verification),
    p.verification.ok ? 'clean' : 'BROKEN',
  ]);
  const id = (x: bigint) => x.toLocaleString('en-US');
  const issued = phases.map((p) => [
    p.title,
    ...p.shards.map((s) => {
      const r = p.issued[s.label];
      return `${s.label} ${r ? `${id(r.min)}..${id(r.max)}` : 'none'}`;
    }),
  ]);
  const broken = phases.filter((p) => !p.verification.ok);
  return [
    `6. What goes wrong without snowkey: segment keys (core's SegmentAllocator, a segment of a counter at a time; one tag for every table)`,
    table([['counter', 'servers', 'rows merged', 'collisions', 'rows lost', 'result'], ...rows]),
    '   ids each server issued:',
    table(issued, '     '),
    ...broken.flatMap((p) => [
      `   what the verification of "${p.title}" found:`,
      ...p.verification.problems.filter((x) => !x.startsWith(' ')).map((x) => `     ${x}`),
    ]),
    `   A segment id carries no server id: servers counting on their own all start at 1. A slice of the`,
    `   id space per server (shardIdRange) or one counter all servers share keeps their ids apart.`,
  ].join('\n');
}

/**
 * An `onProgress` callback that shows the merge: on a terminal, one live line per table and
 * source; elsewhere, one line when each finishes.
 *
 * @example
 * await runMerge({ sources, target, onProgress: progressPrinter(process.stdout) });
 */
export function progressPrinter(
  stream: NodeJS.WriteStream | NodeJS.WritableStream,
): (p: ProgressEvent) => void {
  const tty = 'isTTY' in stream && stream.isTTY === true;
  return (p) => {
    const pct = p.rowsTotal === 0 ? 100 : Math.floor((p.rowsDone * 100) / p.rowsTotal);
    const line =
      `   ${p.phase.padEnd(7)} ${p.phase === 'link' ? `${p.table} (links)` : p.table}`.padEnd(25) +
      ` ${p.source.padEnd(4)} ${n(p.rowsDone).padStart(9)} / ${n(p.rowsTotal).padEnd(9)} ${String(pct).padStart(3)}%`;
    if (tty) stream.write(`\r${line}${p.finished ? '\n' : ''}`);
    else if (p.finished) stream.write(`${line}\n`);
  };
}
