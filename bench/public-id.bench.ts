// `pnpm bench:public-ids`: encodes and decodes/s of publicIdCodec beside decimal, base62, hashids and sqids.
import { parseId, publicIdCodec, toIdString } from '@snowkey/core';
import Hashids from 'hashids';
import { markdownTable } from 'markdown-table';
import Sqids from 'sqids';
import { millions as m, median, type Run, steadyGenerator, timedRun } from './measure.js';

const RUN_MS = Number(process.env.BENCH_RUN_MS ?? 1000);
const ROUNDS = 3;
const POOL = 1 << 16;

/** One way to turn an id into a string and back. */
interface Row {
  readonly name: string;
  encode(id: bigint): string;
  decode(text: string): unknown;
}

const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const B62_VALUE = new Map([...B62].map((c, i) => [c, BigInt(i)]));

const codec = publicIdCodec({ key: '5f0c7e2a9b3d4e6f8a1b2c3d4e5f6a7b', entity: 'order' });
const hashids = new Hashids('a salt of this application');
const sqids = new Sqids();
const rows: readonly Row[] = [
  {
    name: 'snowkey publicIdCodec (keyed, 2 check chars)',
    encode: (id) => codec.encode(id),
    decode: (s) => codec.decode(s),
  },
  {
    name: 'baseline: decimal (toIdString / parseId)',
    encode: (id) => toIdString(id),
    decode: (s) => parseId(s),
  },
  {
    name: 'baseline: base62 of the raw id (BigInt)',
    encode: (id) => {
      let s = '';
      for (let n = id; n > 0n; n /= 62n) s = B62[Number(n % 62n)]! + s;
      return s;
    },
    decode: (s) => {
      let n = 0n;
      for (const c of s) n = n * 62n + B62_VALUE.get(c)!;
      return n;
    },
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

const gen = steadyGenerator();
const ids = gen.nextIds(POOL);
for (const row of rows) {
  for (const id of ids.slice(0, 1000)) {
    if (String(row.name.startsWith('sqids') ? id : row.decode(row.encode(id))) !== String(id)) {
      throw new Error(`${row.name} does not round-trip ${id}`);
    }
  }
}

function encoder(row: Row): () => unknown {
  let i = 0;
  return () => {
    i = (i + 1) & (POOL - 1);
    return row.encode(ids[i]!);
  };
}
function decoder(row: Row): () => unknown {
  const texts = ids.map((id) => row.encode(id));
  let i = 0;
  return () => {
    i = (i + 1) & (POOL - 1);
    return row.decode(texts[i]!);
  };
}

console.log(
  `snowkey public-id benchmark: ${ROUNDS} runs of ${RUN_MS} ms per row and direction, ${POOL} generator ids\n`,
);

const runs = new Map<string, Run[]>();
const fns = new Map(
  rows.flatMap(
    (r) =>
      [
        [`${r.name}|enc`, encoder(r)],
        [`${r.name}|dec`, decoder(r)],
      ] as const,
  ),
);
for (let round = 0; round < ROUNDS; round++) {
  for (const [key, fn] of fns) {
    if (round === 0) timedRun(fn, 1, 200); // warm up the JIT
    runs.set(key, [...(runs.get(key) ?? []), timedRun(fn, 1, RUN_MS)]);
  }
  console.log(`round ${round + 1}/${ROUNDS} done`);
}

const stat = (key: string) => {
  const list = runs.get(key)!;
  const rate = median(list.map((r) => r.idsPerSecond));
  const cpu = median(list.map((r) => r.cpuShare));
  return { rate, cpu, perCpu: rate / cpu, runs: list.map((r) => m(r.idsPerSecond)).join(' / ') };
};
const base = { enc: stat(`${rows[2]!.name}|enc`), dec: stat(`${rows[2]!.name}|dec`) };
const head = ['', 'encodes/s', 'runs', 'vs base62', 'decodes/s', 'runs', 'vs base62', 'cpu', 'example'];
const body = rows.map((r) => {
  const e = stat(`${r.name}|enc`);
  const d = stat(`${r.name}|dec`);
  return [
    r.name,
    m(e.rate),
    e.runs,
    `${(e.rate / base.enc.rate).toFixed(2)}x`,
    m(d.rate),
    d.runs,
    `${(d.rate / base.dec.rate).toFixed(2)}x`,
    `${Math.round(50 * (e.cpu + d.cpu))}%`,
    r.encode(ids[0]!),
  ];
});
console.log(
  `\n${markdownTable([head, ...body], { align: ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l'] })}\n`,
);

const ours = { enc: stat(`${rows[0]!.name}|enc`), dec: stat(`${rows[0]!.name}|dec`) };
const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');
for (const [what, s] of [
  ['encode', ours.enc],
  ['decode', ours.dec],
] as const) {
  console.log(`${verdict(s.perCpu >= 1e6)}  publicIdCodec ${what} >= 1M/s per CPU-second: ${m(s.perCpu)}`);
  console.log(
    `${verdict(s.rate >= 1e6)}  publicIdCodec ${what} >= 1M/s of wall time: ${m(s.rate)}/s with ${Math.round(100 * s.cpu)}% of a CPU`,
  );
}
