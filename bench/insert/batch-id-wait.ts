// How long a batch's ids take when they are taken in one call, as the adapters' bulk writes take
// them (Knex's `insert` and `batchInsert` fill every row before the first statement; the bench's
// hand-set ids are taken the same way). A Snowflake of the default layout gives at most 4096 ids a
// millisecond: in its default 'wait' mode a batch larger than that waits for the clock's next
// millisecond at each 4096, while 'borrow' takes them at once, up to `maxBorrowMs` ahead of the
// clock. Borrowing's allowance refills while the generator idles, as between an application's
// bulk writes, so the rounds are spaced by a pause longer than a batch's lead. Median of the rounds;
// no database. Not part of the benchmark's report.
//   node --conditions=dev-source --import tsx bench/insert/batch-id-wait.ts [rounds]
import { setTimeout as sleep } from 'node:timers/promises';
import { layouts, Snowflake } from '@snowkey/core';
import { markdownTable } from 'markdown-table';
import { positiveCount } from './cli-options.js';
import { median } from './stats.js';

const rounds = positiveCount('rounds')(process.argv[2] ?? '15');
const sizes = [1000, 4096, 20_000, 100_000];
const perMs = 2 ** layouts.default.sequenceBits;
const generators = {
  wait: new Snowflake({ workerId: 1 }),
  borrow: new Snowflake({ workerId: 2, sequenceOverflow: 'borrow' }),
};
type Mode = keyof typeof generators;
const modes = Object.keys(generators) as Mode[];
/** Per mode, per size (by its place in `sizes`), the ms of each counted round. */
const times = Object.fromEntries(modes.map((mode) => [mode, sizes.map(() => [] as number[])])) as Record<
  Mode,
  number[][]
>;

// A new life starts with its borrowing allowance spent (the restart guard); it refills as time passes.
await sleep(1100);
for (let round = -2; round < rounds; round++) {
  for (const [s, size] of sizes.entries()) {
    for (const mode of modes) {
      const start = performance.now();
      generators[mode].nextIds(size);
      const ms = performance.now() - start;
      if (round >= 0) times[mode][s]!.push(ms);
      await sleep(Math.ceil(size / perMs) + 20);
    }
  }
}

console.log(
  markdownTable(
    [
      ['ids in one call', ...modes.map((mode) => `'${mode}' ms`), `ms of clock they span at ${perMs} a ms`],
      ...sizes.map((size, s) => [
        size.toLocaleString('en-US'),
        ...modes.map((mode) => median(times[mode][s]!).toFixed(2)),
        (size / perMs).toFixed(1),
      ]),
    ],
    { align: ['r', 'r', 'r', 'r'] },
  ),
);
