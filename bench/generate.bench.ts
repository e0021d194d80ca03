// `pnpm bench`: ids/s of snowkey and the generators on npm (median of 3 interleaved runs), each then
// checked for duplicates in a burst drawn as fast as it goes.
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { Snowflake as SapphireSnowflake } from '@sapphire/snowflake';
import { Snowflake } from '@snowkey/core';
import { Command } from 'commander';
import { Snowflake as WasmSnowflake } from 'nodejs-snowflake';
import { SnowflakeIdv1 } from 'simple-flakeid';
import { v7 as uuidv7 } from 'uuid';
import { fastClock, interleavedRuns, millions as m, median, table } from './measure.js';

const { runMs } = new Command().option('--run-ms <ms>', 'length of a run', '1000').parse().opts();
const CAP = 4_096_000; // 4096 sequence values a ms: the most one node of the default layout may issue a second
const DISCORD_EPOCH = 1420070400000;
// Loaded as CommonJS: flake-idgen ships no types, snowflakify's ESM build none that TypeScript finds.
const load = createRequire(import.meta.url);
const FlakeId: new (options: { id: number }) => { next(): Buffer } = load('flake-idgen');
const Snowflakify: new () => { nextId(): bigint } = load('snowflakify').default;
/** simple-flakeid with snowkey's 10 worker and 12 sequence bits (its default maxSeqNumber assumes 6). */
const simpleFlakeid = (workerId: number) =>
  new SnowflakeIdv1({ workerId, workerIdBitLength: 10, seqBitLength: 12, maxSeqNumber: 4095 });
const nodejsSnowflake = () => new WasmSnowflake({ instance_id: 1, custom_epoch: DISCORD_EPOCH });
/** flake-idgen throws once a millisecond's 4096 ids are used: a synchronous caller retries. */
function flakeNext(gen: InstanceType<typeof FlakeId>): Buffer {
  for (;;) {
    try {
      return gen.next();
    } catch {}
  }
}
function call<G>(g: G, next: (g: G) => unknown) {
  return () => next(g);
}
type Row = [name: string, create: () => () => unknown, perCall?: number];
/** A snowkey row: nextId(), or nextIds(batch). */
function snowkey(name: string, options: ConstructorParameters<typeof Snowflake>[0], batch?: number): Row {
  const next = batch ? (g: Snowflake<string>) => g.nextIds(batch) : (g: Snowflake<string>) => g.nextId();
  return [name, () => call(new Snowflake(options), next), batch];
}

/** Each generator set up as its library documents it: a factory of fresh "next" calls, and ids a call. */
const generators: Row[] = [
  snowkey("snowkey nextId() (default, 'wait')", { workerId: 1 }),
  snowkey("snowkey nextId() 'borrow'", { workerId: 2, sequenceOverflow: 'borrow' }),
  snowkey('snowkey nextIds(10000)', { workerId: 3 }, 10_000),
  snowkey('snowkey nextId(), clock x100 (code speed)', { workerId: 4, clock: fastClock() }),
  snowkey('snowkey nextIds(10000), clock x100 (code speed)', { workerId: 5, clock: fastClock() }, 10_000),
  ['@sapphire/snowflake generate()', () => call(new SapphireSnowflake(DISCORD_EPOCH), (g) => g.generate())],
  ['simple-flakeid NextBigId()', () => call(simpleFlakeid(1), (g) => g.NextBigId())],
  // The README's call (a Number below 2^53); the ratios use NextBigId(), a bigint like snowkey's.
  ['simple-flakeid NextId()', () => call(simpleFlakeid(2), (g) => g.NextId())],
  ['flake-idgen next()', () => call(new FlakeId({ id: 1 }), flakeNext)],
  ['snowflakify nextId()', () => call(new Snowflakify(), (g) => g.nextId())],
  ['nodejs-snowflake getUniqueID()', () => call(nodejsSnowflake(), (g) => g.getUniqueID())],
  ['uuid v7()', () => () => uuidv7()],
  ['crypto.randomUUID()', () => () => randomUUID()],
];

/** A burst of 2M ids (1M UUIDs) drawn as fast as they come, and its duplicates (ids less distinct ids). */
function duplicates(next: () => unknown): [number, number] {
  const burst = typeof next() === 'string' ? 1_000_000 : 2_000_000;
  const ids: unknown[] = [];
  while (ids.length < burst) ids.push(...[next()].flat());
  ids.length = burst;
  return [burst, burst - new Set(ids.map((id) => (Buffer.isBuffer(id) ? id.toString('hex') : id))).size];
}

console.log(`snowkey generation benchmark: 3 interleaved runs of ${runMs} ms per generator\n`);
const timed = generators.map(([, create, perCall]) => ({ next: create(), perCall }));
const runs = await interleavedRuns(timed, 3, Number(runMs));
const rates = runs.map((r) => median(r.map((run) => run.idsPerSecond)));
const base = rates[6]!; // simple-flakeid NextBigId()
const rows = generators.map(([name, create], i) => {
  const [burst, dup] = duplicates(create());
  return [
    name,
    m(rates[i]!),
    runs[i]!.map((r) => m(r.idsPerSecond)).join(' / '),
    `${(rates[i]! / base).toFixed(2)}x`,
    `${(rates[i]! / CAP).toFixed(2)}x`,
    `${Math.round(100 * median(runs[i]!.map((r) => r.cpuShare)))}%`,
    `${burst / 1e6}M`,
    dup === 0 ? '0' : `${dup} (${((100 * dup) / burst).toFixed(1)}%)`,
  ];
});
const head = 'generator|ids/s (median)|runs|vs simple-flakeid|vs 4.096M cap|cpu|burst|duplicates'.split('|');
console.log(`\n${table(head, rows)}`);
