import { DEFAULT_EPOCH, defineLayout, type Layout } from './layout.js';

/**
 * snowkey's default: 41 bits of ms since 2025-01-01 + workerId 10 + sequence 12 = 63 bits.
 * 1024 nodes, 4096 ids per ms per node, fits a signed BIGINT, runs out 2094-09-07.
 */
const snowkey = defineLayout({
  name: 'snowkey',
  timestampBits: 41,
  nodeBits: { workerId: 10 },
  sequenceBits: 12,
  epoch: DEFAULT_EPOCH,
});

/** Twitter's original: 41 bits of ms since 2010-11-04T01:42:54.657Z + datacenterId 5 + workerId 5 + sequence 12. Runs out 2080-07-10. */
const twitter = defineLayout({
  name: 'twitter',
  timestampBits: 41,
  nodeBits: { datacenterId: 5, workerId: 5 },
  sequenceBits: 12,
  epoch: 1288834974657,
});

/**
 * Discord: 42 bits of ms since 2015-01-01 + workerId 5 + processId 5 + increment 12 = 64 bits, so ids
 * after 2084-09-06 exceed 2^63-1 (unsigned). Runs out 2154-05-15.
 */
const discord = defineLayout({
  name: 'discord',
  timestampBits: 42,
  nodeBits: { workerId: 5, processId: 5 },
  sequenceBits: 12,
  epoch: 1420070400000,
  unsigned: true,
});

/**
 * Instagram: 41 bits of ms since 2011-08-24T21:07:01.721Z + shardId 13 + sequence 10 = 64 bits
 * (ids pass 2^63-1 on 2046-06-27; use BIGINT UNSIGNED or another layout). Runs out 2081-04-30.
 */
const instagram = defineLayout({
  name: 'instagram',
  timestampBits: 41,
  nodeBits: { shardId: 13 },
  sequenceBits: 10,
  epoch: 1314220021721,
  unsigned: true,
});

/**
 * Sonyflake: 39 bits of 10 ms units since 2014-09-01 + sequence 8 + machineId 16 (sequence above
 * machine id). 65536 machines, 25.6 ids per ms per machine. Runs out 2188-11-16.
 */
const sonyflake = defineLayout({
  name: 'sonyflake',
  timestampBits: 39,
  nodeBits: { machineId: 16 },
  sequenceBits: 8,
  timeUnitMs: 10,
  epoch: 1409529600000,
  order: 'sequence-node',
});

/**
 * For game shards that merge (合服): 41 bits of ms since 2025-01-01 + serverId 12 + sequence 10 = 63.
 * 4096 server ids (never reuse one over a game's life, so merged rows keep telling where they were
 * born), 1024 ids per ms per server (1M/s, far beyond one game server's write rate), 69 years
 * (until 2094-09-07), signed BIGINT everywhere.
 */
const gameServer = defineLayout({
  name: 'gameServer',
  timestampBits: 41,
  nodeBits: { serverId: 12 },
  sequenceBits: 10,
  epoch: DEFAULT_EPOCH,
});

/** Preset layouts. `layouts.default` is `layouts.snowkey`. */
export const layouts = Object.freeze({
  default: snowkey,
  snowkey,
  twitter,
  discord,
  instagram,
  sonyflake,
  gameServer,
} satisfies Record<string, Layout>);

/** The name of a preset layout. */
export type LayoutName = keyof typeof layouts;
