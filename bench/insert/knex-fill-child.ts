// The child of knex-fill-instructions.ts: `calls` inserts' worth of `rows` rows in one variant,
// each row's keys and values read as Knex reads them. Bundled by the parent, run under valgrind.
import { manualClock, Snowflake } from '@snowkey/core';
import { RowCopier } from '@snowkey/core/adapter';
import { fillIds, type Row } from '../../packages/knex/src/fill-ids.js';
import { payloadRow } from './payload.js';

type Variant = 'hand' | 'copies' | 'in-place';

/** `calls` inserts' worth of rows in one variant. */
function run(variant: Variant, calls: number, rowCount: number): void {
  const generator = new Snowflake({ workerId: 1, clock: manualClock(Date.UTC(2026, 0, 1), 1).now });
  const copier = new RowCopier(['id']);
  const payload = Array.from({ length: rowCount }, (_, i) => payloadRow(i));
  const bare = () =>
    payload.map(([ownerId, name, score, createdAt]) => ({
      owner_id: ownerId,
      name,
      score,
      created_at: createdAt,
    }));
  const rows: Record<Variant, () => Row[]> = {
    hand: () => {
      const ids = generator.nextIds(rowCount);
      return payload.map(([ownerId, name, score, createdAt], i) => ({
        id: ids[i],
        owner_id: ownerId,
        name,
        score,
        created_at: createdAt,
      }));
    },
    copies: () => fillIds(generator, ['id'], bare(), copier),
    'in-place': () => fillIds(generator, ['id'], bare(), 'in-place'),
  };
  let read = 0;
  for (let call = 0; call < calls; call++) {
    for (const row of rows[variant]()) for (const key of Object.keys(row)) if (row[key] !== undefined) read++;
  }
  if (read !== calls * rowCount * 5) throw new Error(`read ${read} values, expected ${calls * rowCount * 5}`);
}

const [variant, calls, rows] = process.argv.slice(2);
run(variant as Variant, Number(calls), Number(rows));
