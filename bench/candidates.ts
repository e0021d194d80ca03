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

/** What a generator hands back, so the burst check knows how to compare ids. */
export type IdKind = 'bigint' | 'bigint[]' | 'buffer' | 'number-or-bigint' | 'string';

/** One generator under test: `create` makes a fresh instance and returns its "next" call. */
export interface Candidate {
  readonly key: string;
  readonly name: string;
  readonly kind: IdKind;
  readonly perCall: number;
  readonly snowkey?: boolean;
  create(): () => unknown;
}

const DISCORD_EPOCH = 1420070400000;

export const candidates: readonly Candidate[] = [
  {
    key: 'snowkey-wait',
    name: "snowkey nextId() (default, 'wait')",
    kind: 'bigint',
    perCall: 1,
    snowkey: true,
    create: () => {
      const gen = new Snowflake({ workerId: 1 });
      return () => gen.nextId();
    },
  },
  {
    key: 'snowkey-borrow',
    name: "snowkey nextId() 'borrow'",
    kind: 'bigint',
    perCall: 1,
    snowkey: true,
    create: () => {
      const gen = new Snowflake({ workerId: 2, sequenceOverflow: 'borrow' });
      return () => gen.nextId();
    },
  },
  {
    key: 'snowkey-batch',
    name: 'snowkey nextIds(10000)',
    kind: 'bigint[]',
    perCall: 10_000,
    snowkey: true,
    create: () => {
      const gen = new Snowflake({ workerId: 3 });
      return () => gen.nextIds(10_000);
    },
  },
  {
    // Time runs 100x fast, so the cap never binds: what the code itself costs.
    key: 'snowkey-code',
    name: 'snowkey nextId(), clock x100 (code speed)',
    kind: 'bigint',
    perCall: 1,
    snowkey: true,
    create: () => {
      const gen = new Snowflake({ workerId: 4, clock: fastClock() });
      return () => gen.nextId();
    },
  },
  {
    key: 'snowkey-batch-code',
    name: 'snowkey nextIds(10000), clock x100 (code speed)',
    kind: 'bigint[]',
    perCall: 10_000,
    snowkey: true,
    create: () => {
      const gen = new Snowflake({ workerId: 5, clock: fastClock() });
      return () => gen.nextIds(10_000);
    },
  },
  {
    key: 'sapphire',
    name: '@sapphire/snowflake generate()',
    kind: 'bigint',
    perCall: 1,
    create: () => {
      const gen = new SapphireSnowflake(DISCORD_EPOCH);
      return () => gen.generate();
    },
  },
  {
    // maxSeqNumber given: the library derives its default from 6 sequence bits, not seqBitLength.
    key: 'simple-flakeid',
    name: 'simple-flakeid NextBigId()',
    kind: 'bigint',
    perCall: 1,
    create: () => {
      const gen = new SnowflakeIdv1({
        workerId: 1,
        workerIdBitLength: 10,
        seqBitLength: 12,
        maxSeqNumber: 4095,
      });
      return () => gen.NextBigId();
    },
  },
  {
    // The README's call (a Number below 2^53); the ratios use NextBigId(), a bigint like snowkey's.
    key: 'simple-flakeid-number',
    name: 'simple-flakeid NextId()',
    kind: 'number-or-bigint',
    perCall: 1,
    create: () => {
      const gen = new SnowflakeIdv1({
        workerId: 2,
        workerIdBitLength: 10,
        seqBitLength: 12,
        maxSeqNumber: 4095,
      });
      return () => gen.NextId();
    },
  },
  {
    // next() throws once a millisecond's 4096 ids are used: a synchronous caller retries.
    key: 'flake-idgen',
    name: 'flake-idgen next()',
    kind: 'buffer',
    perCall: 1,
    create: () => {
      const gen = new FlakeId({ id: 1 });
      return () => {
        for (;;) {
          try {
            return gen.next();
          } catch {
            // sequence exhausted for this millisecond: try again
          }
        }
      };
    },
  },
  {
    key: 'snowflakify',
    name: 'snowflakify nextId()',
    kind: 'bigint',
    perCall: 1,
    create: () => {
      const gen = new Snowflakify();
      return () => gen.nextId();
    },
  },
  {
    key: 'nodejs-snowflake',
    name: 'nodejs-snowflake getUniqueID()',
    kind: 'bigint',
    perCall: 1,
    create: () => {
      const gen = new WasmSnowflake({ instance_id: 1, custom_epoch: DISCORD_EPOCH });
      return () => gen.getUniqueID();
    },
  },
  {
    key: 'uuid-v7',
    name: 'uuid v7()',
    kind: 'string',
    perCall: 1,
    create: () => () => uuidv7(),
  },
  {
    key: 'random-uuid',
    name: 'crypto.randomUUID()',
    kind: 'string',
    perCall: 1,
    create: () => () => randomUUID(),
  },
];
