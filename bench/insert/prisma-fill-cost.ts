// What snowkey's own Prisma code costs per call, with no database and no Prisma: the filler that
// writes ids into a create's or a createMany's arguments, in the extension's mode (into Prisma's
// copy of the arguments) and in snowkeyClient's (copying the objects on the way to each id). The
// arguments are built fresh for every call, as an application does; the time to build them alone
// is measured the same way and taken off. Median of 5 runs. Not part of the benchmark's report.
//   node --conditions=dev-source --import tsx bench/insert/prisma-fill-cost.ts
import { Snowflake } from '@snowkey/core';
import { markdownTable } from 'markdown-table';
import { buildWritePlan } from '../../packages/prisma/src/data-model.js';
import { createIdFiller } from '../../packages/prisma/src/fill-ids.js';
import { median } from './stats.js';

const scalar = (name: string, type: string) => ({ name, kind: 'scalar', type });
const plan = buildWritePlan(
  {
    models: {
      SnowRow: {
        fields: [
          scalar('id', 'BigInt'),
          scalar('ownerId', 'BigInt'),
          scalar('name', 'String'),
          scalar('score', 'Int'),
          scalar('createdAt', 'BigInt'),
        ],
      },
    },
  },
  new Map([['SnowRow', ['id']]]),
);
const generator = new Snowflake({ workerId: 1 });
const row = (i: number) => ({ ownerId: BigInt(i), name: `player-${i}`, score: i, createdAt: 1n });
const calls = {
  'create(1 row)': {
    count: 200_000,
    args: (i: number) => ({ data: row(i), select: { id: true } }),
    op: 'create',
  },
  'createMany(1000 rows)': {
    count: 300,
    args: (i: number) => ({ data: Array.from({ length: 1000 }, (_, k) => row(i * 1000 + k)) }),
    op: 'createMany',
  },
};
const modes = { extension: false, snowkeyClient: true };

function nsPerCall(count: number, work: (i: number) => unknown): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) work(i);
  return Number(process.hrtime.bigint() - start) / count;
}

const table: string[][] = [];
for (const [callName, call] of Object.entries(calls)) {
  for (const [mode, copy] of Object.entries(modes)) {
    const filler = createIdFiller(plan, generator, copy);
    const runs: number[] = [];
    for (let run = 0; run < 6; run++) {
      const filled = nsPerCall(call.count, (i) => filler.fill('SnowRow', call.op, call.args(i)));
      const built = nsPerCall(call.count, (i) => call.args(i));
      if (run > 0) runs.push(filled - built); // the first run warms up
    }
    table.push([callName, mode, (median(runs) / 1000).toFixed(2)]);
  }
}
console.log("snowkey's Prisma filler alone, ids included, µs per call (median of 5 runs)\n");
console.log(markdownTable([['call', 'mode', 'µs per call'], ...table], { align: ['l', 'l', 'r'] }));
