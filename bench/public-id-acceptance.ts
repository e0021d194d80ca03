// `pnpm bench:public-id-acceptance`: how often another codec's public ids pass, per pair of entities and of
// keys, beside Binomial(10,000, 1/61); exits 1 if a pair accepts all or none.
import { type PublicIdCodec, publicIdCodec } from '@snowkey/core';
import { markdownTable } from 'markdown-table';
import { quantileOfSorted as quantile } from './measure.js';

const PAIRS = Number(process.env.ACCEPTANCE_PAIRS ?? 1000);
const IDS = Number(process.env.ACCEPTANCE_IDS ?? 5000);
const TRIALS = 2 * IDS;
const P = 1 / 61;

/** mulberry32: a small seeded PRNG, so every run draws the same codecs and ids. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

const random = prng(46);
const ids = new Set<bigint>();
while (ids.size < IDS) {
  const id = (BigInt(random() & 0x7fffffff) << 32n) | BigInt(random());
  if (id !== 0n) ids.add(id);
}
const keys = [...ids];
const randomKey = () => Uint8Array.from({ length: 16 }, () => random() & 0xff);
const randomEntity = () =>
  String.fromCharCode(...Array.from({ length: 1 + (random() % 20) }, () => 0x21 + (random() % 94)));

/** Accepted trials of each pair (a, b): b.is on a's public ids plus a.is on b's. */
function acceptedPerPair(pairs: ReadonlyArray<readonly [PublicIdCodec<string>, PublicIdCodec<string>]>) {
  const accepted = (codec: PublicIdCodec<string>, publicIds: readonly string[]) => {
    let n = 0;
    for (const pid of publicIds) if (codec.is(pid)) n++;
    return n;
  };
  return pairs.map(([a, b]) => {
    const fromA = keys.map((id) => a.encode(id));
    const fromB = keys.map((id) => b.encode(id));
    return accepted(b, fromA) + accepted(a, fromB);
  });
}

/** The q-quantile of Binomial(n, p): what chance alone spreads the counts over. */
function binomialQuantile(n: number, p: number, q: number): number {
  let pmf = (1 - p) ** n;
  let cdf = pmf;
  let k = 0;
  while (cdf < q && k < n) {
    pmf = (pmf * (n - k) * p) / ((k + 1) * (1 - p));
    cdf += pmf;
    k++;
  }
  return k;
}

const share = (count: number) => `${((100 * count) / TRIALS).toFixed(2)}%`;
const started = performance.now();
const cpu = process.cpuUsage();
const sharedKey = randomKey();
const entityPairs = Array.from({ length: PAIRS }, () => {
  let e1 = randomEntity();
  let e2 = randomEntity();
  while (e1 === e2) [e1, e2] = [randomEntity(), randomEntity()];
  return [
    publicIdCodec({ key: sharedKey, entity: e1 }),
    publicIdCodec({ key: sharedKey, entity: e2 }),
  ] as const;
});
const keyPairs = Array.from(
  { length: PAIRS },
  () =>
    [
      publicIdCodec({ key: randomKey(), entity: 'order' }),
      publicIdCodec({ key: randomKey(), entity: 'order' }),
    ] as const,
);

const results = [
  ['entities (one key)', acceptedPerPair(entityPairs)],
  ['keys (one entity, key id 0)', acceptedPerPair(keyPairs)],
] as const;

const head = ['pairs of', 'pairs', 'trials a pair', 'min', '1%', 'median', '99%', 'max', 'all trials'];
const rows = results.map(([what, counts]) => {
  const sorted = [...counts].sort((x, y) => x - y);
  const total = counts.reduce((s, n) => s + n, 0);
  return [
    what,
    String(counts.length),
    TRIALS.toLocaleString('en-US'),
    share(sorted[0]!),
    share(quantile(sorted, 0.01)),
    share(quantile(sorted, 0.5)),
    share(quantile(sorted, 0.99)),
    share(sorted[sorted.length - 1]!),
    `${((100 * total) / (TRIALS * counts.length)).toFixed(3)}%`,
  ];
});
rows.push([
  `chance alone: Binomial(${TRIALS.toLocaleString('en-US')}, 1/61)`,
  '',
  '',
  share(binomialQuantile(TRIALS, P, 0.001)),
  share(binomialQuantile(TRIALS, P, 0.01)),
  share(binomialQuantile(TRIALS, P, 0.5)),
  share(binomialQuantile(TRIALS, P, 0.99)),
  share(binomialQuantile(TRIALS, P, 0.999)),
  `${(100 * P).toFixed(3)}%`,
]);
console.log(
  `Public ids of one codec accepted by another, per pair (${PAIRS} pairs each; 1/61 = ${(100 * P).toFixed(2)}%; ` +
    'the chance row shows the 0.1% and 99.9% quantiles under min and max)\n',
);
console.log(markdownTable([head, ...rows], { align: ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'] }));
const used = process.cpuUsage(cpu);
console.log(
  `\n${((performance.now() - started) / 1000).toFixed(0)} s of wall time, ${((used.user + used.system) / 1e6).toFixed(0)} CPU-seconds`,
);
const wholesale = results.flatMap(([what, counts]) =>
  counts.filter((n) => n === 0 || n === TRIALS).map((n) => `${what}: ${n} of ${TRIALS}`),
);
if (wholesale.length > 0) {
  console.log(`FAIL  pairs that accept all or none: ${wholesale.join('; ')}`);
  process.exit(1);
}
