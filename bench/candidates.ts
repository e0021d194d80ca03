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

/** A candidate making one bigint per call, or as `kind` and `perCall` say. */
const candidate = (
  key: string,
  name: string,
  create: () => () => unknown,
  more: Partial<Pick<Candidate, 'kind' | 'perCall' | 'snowkey'>> = {},
): Candidate => ({ key, name, kind: 'bigint', perCall: 1, create, ...more });
const snowkey = { snowkey: true };
const batch = { snowkey: true, kind: 'bigint[]', perCall: 10_000 } as const;
/** simple-flakeid with snowkey's 10 worker and 12 sequence bits (maxSeqNumber given: its default assumes 6). */
const simpleFlakeid = (workerId: number) =>
  new SnowflakeIdv1({ workerId, workerIdBitLength: 10, seqBitLength: 12, maxSeqNumber: 4095 });

export const candidates: readonly Candidate[] = [
  candidate(
    'snowkey-wait',
    "snowkey nextId() (default, 'wait')",
    () => {
      const gen = new Snowflake({ workerId: 1 });
      return () => gen.nextId();
    },
    snowkey,
  ),
  candidate(
    'snowkey-borrow',
    "snowkey nextId() 'borrow'",
    () => {
      const gen = new Snowflake({ workerId: 2, sequenceOverflow: 'borrow' });
      return () => gen.nextId();
    },
    snowkey,
  ),
  candidate(
    'snowkey-batch',
    'snowkey nextIds(10000)',
    () => {
      const gen = new Snowflake({ workerId: 3 });
      return () => gen.nextIds(10_000);
    },
    batch,
  ),
  // Time runs 100x fast, so the cap never binds: what the code itself costs.
  candidate(
    'snowkey-code',
    'snowkey nextId(), clock x100 (code speed)',
    () => {
      const gen = new Snowflake({ workerId: 4, clock: fastClock() });
      return () => gen.nextId();
    },
    snowkey,
  ),
  candidate(
    'snowkey-batch-code',
    'snowkey nextIds(10000), clock x100 (code speed)',
    () => {
      const gen = new Snowflake({ workerId: 5, clock: fastClock() });
      return () => gen.nextIds(10_000);
    },
    batch,
  ),
  candidate('sapphire', '@sapphire/snowflake generate()', () => {
    const gen = new SapphireSnowflake(DISCORD_EPOCH);
    return () => gen.generate();
  }),
  candidate('simple-flakeid', 'simple-flakeid NextBigId()', () => {
    const gen = simpleFlakeid(1);
    return () => gen.NextBigId();
  }),
  // The README's call (a Number below 2^53); the ratios use NextBigId(), a bigint like snowkey's.
  candidate(
    'simple-flakeid-number',
    'simple-flakeid NextId()',
    () => {
      const gen = simpleFlakeid(2);
      return () => gen.NextId();
    },
    { kind: 'number-or-bigint' },
  ),
  // next() throws once a millisecond's 4096 ids are used: a synchronous caller retries.
  candidate(
    'flake-idgen',
    'flake-idgen next()',
    () => {
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
    { kind: 'buffer' },
  ),
  candidate('snowflakify', 'snowflakify nextId()', () => {
    const gen = new Snowflakify();
    return () => gen.nextId();
  }),
  candidate('nodejs-snowflake', 'nodejs-snowflake getUniqueID()', () => {
    const gen = new WasmSnowflake({ instance_id: 1, custom_epoch: DISCORD_EPOCH });
    return () => gen.getUniqueID();
  }),
  candidate('uuid-v7', 'uuid v7()', () => () => uuidv7(), { kind: 'string' }),
  candidate('random-uuid', 'crypto.randomUUID()', () => () => randomUUID(), { kind: 'string' }),
];
