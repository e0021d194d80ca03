// The child of knex-fill-instructions.ts: `calls` inserts' worth of `rows` rows in one variant,
// each row's keys and values read as Knex reads them. Bundled by the parent, run under valgrind.
import { manualClock, Snowflake } from '@snowkey/core';
import { RowCopier } from '@snowkey/core/adapter';
import { fillIds, type Row } from '../../packages/knex/src/fill-ids.js';
import { callerColumns } from './adapters/adapter-bench.js';
import { benchRows } from './payload.js';

type Variant = 'hand' | 'copies' | 'in-place';

/** `calls` inserts' worth of rows in one variant. */
function run(variant: Variant, calls: number, rowCount: number): void {
  const generator = new Snowflake({ workerId: 1, clock: manualClock(Date.UTC(2026, 0, 1), 1).now });
  const copier = new RowCopier(['id']);
  // The rows as the adapter bench builds them, from one payload made once.
  const payload = benchRows(rowCount, 0);
  const rows: Record<Variant, () => Row[]> = {
    hand: () => callerColumns(payload, 'hand-set', generator),
    copies: () => fillIds(generator, ['id'], callerColumns(payload, 'snowkey', generator), copier),
    'in-place': () => fillIds(generator, ['id'], callerColumns(payload, 'snowkey', generator), 'in-place'),
  };
  let read = 0;
  for (let call = 0; call < calls; call++) {
    for (const row of rows[variant]()) for (const key of Object.keys(row)) if (row[key] !== undefined) read++;
  }
  if (read !== calls * rowCount * 5) throw new Error(`read ${read} values, expected ${calls * rowCount * 5}`);
}

const [variant, calls, rows] = process.argv.slice(2);
run(variant as Variant, Number(calls), Number(rows));
