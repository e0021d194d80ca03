// `pnpm bench:public-ids`: encodes and decodes/s of publicIdCodec beside decimal, base62, hashids and sqids.
// `pnpm bench:public-id-collisions` (argument `collisions`): 5M consecutive keys and 5M generator ids
// encoded, decoded back, all in one Set. `pnpm bench:public-id-acceptance` (argument `acceptance`): how
// often another codec's public ids pass, per pair of entities and of keys, beside Binomial(10,000, 1/61).
// Both exit 1 on a fault.
import { type PublicIdCodec, parseId, publicIdCodec, toIdString } from '@snowkey/core';
import Hashids from 'hashids';
import Sqids from 'sqids';
import {
  interleavedRuns,
  millions as m,
  median,
  quantileOfSorted,
  steadyGenerator,
  table,
} from './measure.js';

const codec = publicIdCodec({ key: '5f0c7e2a9b3d4e6f8a1b2c3d4e5f6a7b', entity: 'order' });
const mode = process.argv[2] ?? 'speed';

if (mode === 'speed') {
  const RUN_MS = Number(process.env.BENCH_RUN_MS ?? 1000);
  const POOL = 1 << 16;
  const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  const B62_VALUE = new Map([...B62].map((c, i) => [c, BigInt(i)]));
  const hashids = new Hashids('a salt of this application');
  const sqids = new Sqids();
  const rows: { name: string; encode(id: bigint): string; decode(text: string): unknown }[] = [
    { name: 'snowkey publicIdCodec (keyed, 2 check chars)', encode: codec.encode, decode: codec.decode },
    { name: 'baseline: decimal (toIdString / parseId)', encode: toIdString, decode: parseId },
    {
      name: 'baseline: base62 of the raw id (BigInt)',
      encode: (id) => {
        let s = '';
        for (let n = id; n > 0n; n /= 62n) s = B62[Number(n % 62n)]! + s;
        return s;
      },
      decode: (s) => [...s].reduce((n, c) => n * 62n + B62_VALUE.get(c)!, 0n),
    },
    {
      name: 'hashids 2.3 (salted, bigint)',
      encode: (id) => hashids.encode(id),
      decode: (s) => hashids.decode(s)[0],
    },
    {
      // sqids takes safe-integer Numbers only: a 63-bit id goes in as its two 32-bit halves.
      name: 'sqids 0.3 ([hi, lo] halves)',
      encode: (id) => sqids.encode([Number(id >> 32n), Number(id & 0xffffffffn)]),
      decode: (s) => sqids.decode(s),
    },
  ];
  const ids = steadyGenerator().nextIds(POOL);
  for (const row of rows) {
    for (const id of ids.slice(0, 1000)) {
      if (String(row.name.startsWith('sqids') ? id : row.decode(row.encode(id))) !== String(id))
        throw new Error(`${row.name} does not round-trip ${id}`);
    }
  }
  const cycle = (call: (i: number) => unknown) => {
    let i = 0;
    return () => {
      i = (i + 1) & (POOL - 1);
      return call(i);
    };
  };
  const fns = new Map<string, () => unknown>();
  for (const r of rows) {
    const texts = ids.map((id) => r.encode(id));
    fns.set(
      `${r.name}|enc`,
      cycle((i) => r.encode(ids[i]!)),
    );
    fns.set(
      `${r.name}|dec`,
      cycle((i) => r.decode(texts[i]!)),
    );
  }
  console.log(
    `snowkey public-id benchmark: 3 runs of ${RUN_MS} ms per row and direction, ${POOL} generator ids\n`,
  );
  const runs = interleavedRuns(fns, () => 1, 3, RUN_MS);
  const stat = (row: (typeof rows)[number], dir: 'enc' | 'dec') => {
    const list = runs.get(`${row.name}|${dir}`)!;
    const rate = median(list.map((r) => r.idsPerSecond));
    return {
      rate,
      cpu: median(list.map((r) => r.cpuShare)),
      runs: list.map((r) => m(r.idsPerSecond)).join(' / '),
    };
  };
  const base = { enc: stat(rows[2]!, 'enc').rate, dec: stat(rows[2]!, 'dec').rate };
  const body = rows.map((r) => {
    const [e, d] = [stat(r, 'enc'), stat(r, 'dec')];
    const [ve, vd] = [(e.rate / base.enc).toFixed(2), (d.rate / base.dec).toFixed(2)];
    const cpu = `${Math.round(50 * (e.cpu + d.cpu))}%`;
    return [r.name, m(e.rate), e.runs, `${ve}x`, m(d.rate), d.runs, `${vd}x`, cpu, r.encode(ids[0]!)];
  });
  const head = ['', 'encodes/s', 'runs', 'vs base62', 'decodes/s', 'runs', 'vs base62', 'cpu', 'example'];
  console.log(`\n${table(head, body, 'lrrrrrrrl')}\n`);
  for (const dir of ['enc', 'dec'] as const) {
    const s = stat(rows[0]!, dir);
    console.log(`publicIdCodec ${dir}odes per CPU-second: ${m(s.rate / s.cpu)} (goal: 1M)`);
  }
} else if (mode === 'collisions') {
  const HALF = Number(process.env.COLLISION_HALF ?? 5_000_000);
  const gen = steadyGenerator();
  const seen = new Set<string>();
  let faults = 0;
  const started = performance.now();
  const secs = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
  const check = (id: bigint) => {
    const pid = codec.encode(id);
    if (codec.decode(pid) !== id) faults++;
    seen.add(pid);
  };
  for (let id = 1n; id <= BigInt(HALF); id++) check(id);
  for (let left = HALF; left > 0; left -= 10_000)
    for (const id of gen.nextIds(Math.min(10_000, left))) check(id);
  const n = (x: number) => x.toLocaleString('en');
  const collisions = 2 * HALF - seen.size;
  console.log(
    `${n(2 * HALF)} keys (${n(HALF)} consecutive from 1, ${n(HALF)} generator ids): ${faults} round-trip faults, ${collisions} collisions, ${secs()}`,
  );
  if (faults > 0 || collisions > 0) process.exit(1);
} else if (mode === 'acceptance') {
  const PAIRS = Number(process.env.ACCEPTANCE_PAIRS ?? 1000);
  const IDS = Number(process.env.ACCEPTANCE_IDS ?? 5000);
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
  type Pair = readonly [PublicIdCodec<string>, PublicIdCodec<string>];
  // Accepted trials of each pair (a, b): b.is on a's public ids plus a.is on b's.
  const accepted = (pairs: Pair[]) =>
    pairs.map(
      ([x, y]) =>
        keys.filter((id) => y.is(x.encode(id))).length + keys.filter((id) => x.is(y.encode(id))).length,
    );
  // The q-quantile of Binomial(n, p): what chance alone spreads the counts over.
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
  const sharedKey = randomKey();
  const entityPairs = Array.from({ length: PAIRS }, (): Pair => {
    let [e1, e2] = [randomEntity(), randomEntity()];
    while (e1 === e2) [e1, e2] = [randomEntity(), randomEntity()];
    return [publicIdCodec({ key: sharedKey, entity: e1 }), publicIdCodec({ key: sharedKey, entity: e2 })];
  });
  const keyPairs = Array.from(
    { length: PAIRS },
    (): Pair => [
      publicIdCodec({ key: randomKey(), entity: 'order' }),
      publicIdCodec({ key: randomKey(), entity: 'order' }),
    ],
  );
  const results = [
    ['entities (one key)', accepted(entityPairs)],
    ['keys (one entity, key id 0)', accepted(keyPairs)],
  ] as const;
  const trials = TRIALS.toLocaleString('en-US');
  const rows = results.map(([what, counts]) => {
    const sorted = [...counts].sort((x, y) => x - y);
    const q = (p: number) => share(quantileOfSorted(sorted, p));
    const all = counts.reduce((s, n) => s + n, 0) / (TRIALS * counts.length);
    return [
      what,
      String(counts.length),
      trials,
      q(0),
      q(0.01),
      q(0.5),
      q(0.99),
      q(1),
      `${(100 * all).toFixed(3)}%`,
    ];
  });
  const chance = [0.001, 0.01, 0.5, 0.99, 0.999].map((q) => share(binomial(q)));
  rows.push([`chance alone: Binomial(${trials}, 1/61)`, '', '', ...chance, `${(100 * P).toFixed(3)}%`]);
  console.log(
    `Public ids of one codec accepted by another, per pair (${PAIRS} pairs each; 1/61 = ${(100 * P).toFixed(2)}%; ` +
      'the chance row shows the 0.1% and 99.9% quantiles under min and max)\n',
  );
  const head = ['pairs of', 'pairs', 'trials a pair', 'min', '1%', 'median', '99%', 'max', 'all trials'];
  console.log(table(head, rows));
  const cpu = process.cpuUsage();
  console.log(
    `\n${(performance.now() / 1000).toFixed(0)} s of wall time, ${((cpu.user + cpu.system) / 1e6).toFixed(0)} CPU-seconds`,
  );
  const wholesale = results.flatMap(([what, counts]) =>
    counts.filter((n) => n === 0 || n === TRIALS).map((n) => `${what}: ${n} of ${TRIALS}`),
  );
  if (wholesale.length > 0) {
    console.log(`FAIL  pairs that accept all or none: ${wholesale.join('; ')}`);
    process.exit(1);
  }
} else throw new Error(`unknown mode ${mode}: speed, collisions or acceptance`);
