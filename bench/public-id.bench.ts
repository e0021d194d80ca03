// `pnpm bench:public-ids`: encodes and decodes/s of publicIdCodec beside decimal, base62, hashids and sqids.
// `collisions`: consecutive keys and generator ids encoded, decoded back, all in one Set.
// `acceptance`: how often another codec's public ids pass, per pair of entities and of keys.
import { layouts, parseId, publicIdCodec, Snowflake, toIdString } from '@snowkey/core';
import { Command } from 'commander';
import Hashids from 'hashids';
import Sqids from 'sqids';
import { interleavedRuns, millions as m, median, quantileOfSorted, table } from './measure.js';

const cli = new Command()
  .argument('[mode]', 'speed, collisions or acceptance', 'speed')
  .option('--run-ms <ms>', 'speed: length of a run', '1000')
  .option('--keys <n>', 'collisions: keys, half consecutive and half generator ids', '10000000')
  .parse();
const options = cli.opts<Record<'runMs' | 'keys', string>>();
const mode = cli.args[0] ?? 'speed';
const codec = publicIdCodec({ key: '5f0c7e2a9b3d4e6f8a1b2c3d4e5f6a7b', entity: 'order' });
let clockMs = Date.UTC(2026, 10, 1);
let calls = 0;
// Real ids: the clock moves 1 ms every 50 ids.
const generator = new Snowflake({
  layout: layouts.default,
  workerId: 7,
  clock: () => (calls++ % 50 === 0 ? ++clockMs : clockMs),
});

if (mode === 'speed') {
  const POOL = 1 << 16;
  const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  const B62_VALUE = new Map([...B62].map((c, i) => [c, BigInt(i)]));
  const hashids = new Hashids('a salt of this application');
  const sqids = new Sqids();
  const codecs: [string, (id: bigint) => string, (text: string) => unknown][] = [
    ['snowkey publicIdCodec (keyed, 2 check chars)', codec.encode, codec.decode],
    ['baseline: decimal (toIdString / parseId)', toIdString, parseId],
    [
      'baseline: base62 of the raw id (BigInt)',
      (id) => {
        let s = '';
        for (let n = id; n > 0n; n /= 62n) s = B62[Number(n % 62n)]! + s;
        return s;
      },
      (s) => [...s].reduce((n, c) => n * 62n + B62_VALUE.get(c)!, 0n),
    ],
    ['hashids 2.3 (salted, bigint)', (id) => hashids.encode(id), (s) => hashids.decode(s)[0]],
    // sqids takes safe-integer Numbers only: a 63-bit id goes in as its two 32-bit halves.
    [
      'sqids 0.3 ([hi, lo] halves)',
      (id) => sqids.encode([Number(id >> 32n), Number(id & 0xffffffffn)]),
      (s) => sqids.decode(s),
    ],
  ];
  const ids = generator.nextIds(POOL);
  for (const [name, encode, decode] of codecs.slice(0, 4))
    for (const id of ids.slice(0, 1000))
      if (String(decode(encode(id))) !== String(id)) throw new Error(`${name} does not round-trip ${id}`);
  let i = 0; // each call takes the next id (or text) of the pool
  const timed = codecs.flatMap(([, encode, decode]) => {
    const texts = ids.map((id) => encode(id));
    return [{ next: () => encode(ids[++i & (POOL - 1)]!) }, { next: () => decode(texts[++i & (POOL - 1)]!) }];
  });
  console.log(`snowkey public-id benchmark: 3 interleaved runs of ${options.runMs} ms per codec and way\n`);
  const runs = await interleavedRuns(timed, 3, Number(options.runMs));
  const rate = (k: number) => median(runs[k]!.map((r) => r.idsPerSecond));
  const cpu = (k: number) => median(runs[k]!.map((r) => r.cpuShare));
  const body = codecs.map(([name, encode], c) => {
    const [e, d] = [2 * c, 2 * c + 1];
    const all = (k: number) => runs[k]!.map((r) => m(r.idsPerSecond)).join(' / ');
    const vs = (k: number) => `${(rate(k) / rate(4 + (k % 2))).toFixed(2)}x`;
    const share = `${Math.round(50 * (cpu(e) + cpu(d)))}%`;
    return [name, m(rate(e)), all(e), vs(e), m(rate(d)), all(d), vs(d), share, encode(ids[0]!)];
  });
  const head = ['', 'encodes/s', 'runs', 'vs base62', 'decodes/s', 'runs', 'vs base62', 'cpu', 'example'];
  console.log(`\n${table(head, body, 'lrrrrrrrl')}\n`);
  console.log(
    `publicIdCodec per CPU-second: ${m(rate(0) / cpu(0))} encodes, ${m(rate(1) / cpu(1))} decodes (goal: 1M)`,
  );
} else if (mode === 'collisions') {
  const half = Number(options.keys) / 2;
  const seen = new Set<string>();
  let faults = 0;
  const check = (id: bigint) => {
    const text = codec.encode(id);
    if (codec.decode(text) !== id) faults++;
    seen.add(text);
  };
  for (let id = 1n; id <= BigInt(half); id++) check(id);
  for (let left = half; left > 0; left -= 10_000)
    for (const id of generator.nextIds(Math.min(10_000, left))) check(id);
  const collisions = 2 * half - seen.size;
  console.log(
    `${2 * half} keys (${half} consecutive from 1, ${half} generator ids): ${faults} round-trip faults, ${collisions} collisions`,
  );
  if (faults > 0 || collisions > 0) process.exit(1);
} else if (mode === 'acceptance') {
  const [PAIRS, IDS] = [1000, 5000]; // pairs of each kind; random keys each codec of a pair encodes
  const TRIALS = 2 * IDS;
  const P = 1 / 61;
  // mulberry32: a small seeded PRNG, so every run draws the same codecs and ids.
  let a = 46;
  const random = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  const idSet = new Set<bigint>();
  while (idSet.size < IDS) {
    const id = (BigInt(random() & 0x7fffffff) << 32n) | BigInt(random());
    if (id !== 0n) idSet.add(id);
  }
  const keys = [...idSet];
  const randomKey = () => Uint8Array.from({ length: 16 }, () => random() & 0xff);
  const randomEntity = () =>
    String.fromCharCode(...Array.from({ length: 1 + (random() % 20) }, () => 0x21 + (random() % 94)));
  const codecOf = (key: Uint8Array, entity: string) => publicIdCodec({ key, entity });
  type Codec = ReturnType<typeof codecOf>;
  // Trials of each pair accepted: y.is on x's public ids, and x.is on y's.
  const accepted = ([x, y]: [Codec, Codec]) =>
    keys.filter((id) => y.is(x.encode(id))).length + keys.filter((id) => x.is(y.encode(id))).length;
  const sharedKey = randomKey();
  const entityPairs = Array.from({ length: PAIRS }, (): [Codec, Codec] => {
    let [e1, e2] = [randomEntity(), randomEntity()];
    while (e1 === e2) [e1, e2] = [randomEntity(), randomEntity()];
    return [codecOf(sharedKey, e1), codecOf(sharedKey, e2)];
  });
  const keyPairs = Array.from({ length: PAIRS }, (): [Codec, Codec] => [
    codecOf(randomKey(), 'order'),
    codecOf(randomKey(), 'order'),
  ]);
  /** The `q` quantile of Binomial(TRIALS, P): what chance alone spreads the counts over. */
  const binomial = (q: number) => {
    let pmf = (1 - P) ** TRIALS;
    let cdf = pmf;
    let k = 0;
    for (; cdf < q && k < TRIALS; k++) {
      pmf = (pmf * (TRIALS - k) * P) / ((k + 1) * (1 - P));
      cdf += pmf;
    }
    return k;
  };
  const share = (count: number) => `${((100 * count) / TRIALS).toFixed(2)}%`;
  const trials = TRIALS.toLocaleString('en-US');
  const results = [
    ['entities (one key)', entityPairs.map(accepted).sort((x, y) => x - y)],
    ['keys (one entity, key id 0)', keyPairs.map(accepted).sort((x, y) => x - y)],
  ] as const;
  const rows = results.map(([what, counts]) => {
    const all = counts.reduce((s, n) => s + n, 0) / (TRIALS * counts.length);
    const q = [0, 0.01, 0.5, 0.99, 1].map((p) => share(quantileOfSorted(counts, p)));
    return [what, String(PAIRS), trials, ...q, `${(100 * all).toFixed(3)}%`];
  });
  const chance = [0.001, 0.01, 0.5, 0.99, 0.999].map((q) => share(binomial(q)));
  rows.push([`chance alone: Binomial(${trials}, 1/61)`, '', '', ...chance, `${(100 * P).toFixed(3)}%`]);
  console.log("Another codec's public ids accepted, per pair (chance row: min and max at 0.1% and 99.9%)\n");
  const head = ['pairs of', 'pairs', 'trials a pair', 'min', '1%', 'median', '99%', 'max', 'all trials'];
  console.log(table(head, rows));
  // A pair that accepts all or none would be a broken check, not chance.
  if (results.some(([, counts]) => counts[0] === 0 || counts.at(-1) === TRIALS)) {
    console.log("FAIL: a pair accepts all or none of the other codec's public ids");
    process.exit(1);
  }
} else throw new Error(`unknown mode ${mode}: speed, collisions or acceptance`);
