import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { Snowflake as SapphireSnowflake } from '@sapphire/snowflake';
import { Snowflake } from '@snowkey/core';
import FlakeId from 'flake-idgen';
import { Snowflake as WasmSnowflake } from 'nodejs-snowflake';
import { SnowflakeIdv1 } from 'simple-flakeid';
import { v7 as uuidv7 } from 'uuid';
import { fastClock } from './measure.js';

// snowflakify's ESM build imports its files without the types TypeScript wants; load its CJS build.
const Snowflakify: new () => { nextId(): bigint } = createRequire(import.meta.url)('snowflakify').default;

/** One generator under test: `create` makes a fresh instance and returns its "next" call. */
export interface Candidate {
  readonly name: string;
  /** What "next" hands back, so the burst check knows how to compare ids. */
  readonly kind: 'bigint' | 'bigint[]' | 'buffer' | 'number-or-bigint' | 'string';
  readonly perCall: number;
  create(): () => unknown;
}

const DISCORD_EPOCH = 1420070400000;
const BATCH = { kind: 'bigint[]', perCall: 10_000 } as const;

/** A candidate calling `next` on a fresh `make()`; one bigint per call unless `more` says otherwise. */
const c = <G>(name: string, make: () => G, next: (g: G) => unknown, more: Partial<Candidate> = {}) => ({
  name,
  kind: 'bigint' as const,
  perCall: 1,
  create: () => {
    const g = make();
    return () => next(g);
  },
  ...more,
});

/** simple-flakeid with snowkey's 10 worker and 12 sequence bits (maxSeqNumber given: its default assumes 6). */
const simpleFlakeid = (workerId: number) =>
  new SnowflakeIdv1({ workerId, workerIdBitLength: 10, seqBitLength: 12, maxSeqNumber: 4095 });

/** flake-idgen's next() throws once a millisecond's 4096 ids are used: a synchronous caller retries. */
function flakeNext(gen: FlakeId): Buffer {
  for (;;) {
    try {
      return gen.next();
    } catch {}
  }
}

export const candidates: readonly Candidate[] = [
  c(
    "snowkey nextId() (default, 'wait')",
    () => new Snowflake({ workerId: 1 }),
    (g) => g.nextId(),
  ),
  c(
    "snowkey nextId() 'borrow'",
    () => new Snowflake({ workerId: 2, sequenceOverflow: 'borrow' }),
    (g) => g.nextId(),
  ),
  c(
    'snowkey nextIds(10000)',
    () => new Snowflake({ workerId: 3 }),
    (g) => g.nextIds(10_000),
    BATCH,
  ),
  // Time runs 100x fast, so the cap never binds: what the code itself costs.
  c(
    'snowkey nextId(), clock x100 (code speed)',
    () => new Snowflake({ workerId: 4, clock: fastClock() }),
    (g) => g.nextId(),
  ),
  c(
    'snowkey nextIds(10000), clock x100 (code speed)',
    () => new Snowflake({ workerId: 5, clock: fastClock() }),
    (g) => g.nextIds(10_000),
    BATCH,
  ),
  c(
    '@sapphire/snowflake generate()',
    () => new SapphireSnowflake(DISCORD_EPOCH),
    (g) => g.generate(),
  ),
  c(
    'simple-flakeid NextBigId()',
    () => simpleFlakeid(1),
    (g) => g.NextBigId(),
  ),
  // The README's call (a Number below 2^53); the ratios use NextBigId(), a bigint like snowkey's.
  c(
    'simple-flakeid NextId()',
    () => simpleFlakeid(2),
    (g) => g.NextId(),
    { kind: 'number-or-bigint' },
  ),
  c('flake-idgen next()', () => new FlakeId({ id: 1 }), flakeNext, { kind: 'buffer' }),
  c(
    'snowflakify nextId()',
    () => new Snowflakify(),
    (g) => g.nextId(),
  ),
  c(
    'nodejs-snowflake getUniqueID()',
    () => new WasmSnowflake({ instance_id: 1, custom_epoch: DISCORD_EPOCH }),
    (g) => g.getUniqueID(),
  ),
  c(
    'uuid v7()',
    () => undefined,
    () => uuidv7(),
    { kind: 'string' },
  ),
  c(
    'crypto.randomUUID()',
    () => undefined,
    () => randomUUID(),
    { kind: 'string' },
  ),
];
