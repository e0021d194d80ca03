import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { MAX_KEY } from '../src/adapter.js';
import { InvalidPublicIdError, type PublicIdCodec, publicIdCodec } from '../src/index.js';
import { binomialBounds } from './binomial.js';
import { caught } from './caught.js';

// A public id of another codec (another entity, or another key under the same key id) is
// refused by this codec's keyed check 60 times in 61, independently for each id: for every
// pair of codecs the share of one's public ids the other accepts is a Binomial(n, 1/61) count,
// never all or nothing. Each test draws 100 codecs and 1,000 distinct pairs of them (fixed seeds);
// every codec encodes the same 2,000 random keys, and each pair checks both ways: 4,000 trials.
// Each bound below is exact (binomial) or rigorous (Chernoff), so that a correct codec breaks one
// of the 2 x 1,001 bounds of this file with probability at most 1e-9: never by chance.
const P = 1 / 61;
const CODECS = 100;
const PAIRS = 1000;
const IDS = 2000;
const TRIALS = 2 * IDS;
const ALPHA = 1e-9 / (2 * (PAIRS + 1));
const [LO, HI] = binomialBounds(TRIALS, P, ALPHA);

// Distinct and unbiased: a repeated id would repeat its trial, and fast-check's bias favours edge values.
const [ids] = fc.sample(
  fc.uniqueArray(fc.noBias(fc.bigInt({ min: 1n, max: MAX_KEY })), { minLength: IDS, maxLength: IDS }),
  { numRuns: 1, seed: 4601 },
) as [bigint[]];
const [pairs] = fc.sample(
  fc.uniqueArray(
    fc.tuple(fc.nat({ max: CODECS - 1 }), fc.nat({ max: CODECS - 1 })).filter(([a, b]) => a < b),
    { minLength: PAIRS, maxLength: PAIRS, selector: ([a, b]) => a * CODECS + b },
  ),
  { numRuns: 1, seed: 4602 },
) as [Array<[number, number]>];

/** For each pair, how many of the 4,000 public ids of one codec the other accepts. */
function acceptedPerPair(codecs: ReadonlyArray<PublicIdCodec<string>>): number[] {
  const issued = codecs.map((codec) => ids.map((id) => codec.encode(id)));
  const accepted = (codec: PublicIdCodec<string>, publicIds: readonly string[]) => {
    let n = 0;
    for (const pid of publicIds) if (codec.is(pid)) n++;
    return n;
  };
  return pairs.map(([a, b]) => accepted(codecs[b]!, issued[a]!) + accepted(codecs[a]!, issued[b]!));
}

/** Chernoff bounds on the total of PAIRS x TRIALS independent trials: [lo, hi] with each tail at most ALPHA / 2. */
function totalBounds(): [number, number] {
  const mean = PAIRS * TRIALS * P;
  const l = Math.log(2 / ALPHA);
  const below = Math.sqrt((2 * l) / mean); // P(X <= (1 - d) mean) <= exp(-d^2 mean / 2)
  const above = (l + Math.sqrt(l * l + 8 * l * mean)) / (2 * mean); // P(X >= (1 + d) mean) <= exp(-d^2 mean / (2 + d))
  return [(1 - below) * mean, (1 + above) * mean];
}

function expectNearOneIn61(counts: readonly number[]): void {
  expect([LO, HI]).toEqual([17, 131]); // of 4,000: 0.4% to 3.3%, around 1/61 = 1.6%
  const outside = counts.flatMap((n, i) => (n < LO || n > HI ? [{ pair: pairs[i], accepted: n }] : []));
  expect(outside).toEqual([]);
  const total = counts.reduce((s, n) => s + n, 0);
  const [lo, hi] = totalBounds();
  expect(total).toBeGreaterThanOrEqual(lo);
  expect(total).toBeLessThanOrEqual(hi);
}

describe('publicIdCodec: public ids of another codec', () => {
  test("GIVEN issue 46's pair of entities under one key THEN the other codec refuses the order's public id (keyed check)", () => {
    const k = '000102030405060708090a0b0c0d0e0f';
    const order = publicIdCodec({ key: k, entity: 'order' });
    const other = publicIdCodec({ key: k, entity: 'e19' });
    const err = caught(() => other.decode(order.encode(42n)));
    expect(err).toBeInstanceOf(InvalidPublicIdError);
    expect(err).toMatchObject({ fault: 'foreign', entity: 'e19' });
    // That pair accepted every id before; now it is one pair among others.
    let accepted = 0;
    for (const id of ids) if (other.is(order.encode(id))) accepted++;
    const [lo, hi] = binomialBounds(IDS, P, ALPHA);
    expect(accepted).toBeGreaterThanOrEqual(lo);
    expect(accepted).toBeLessThanOrEqual(hi);
  });

  test("GIVEN 1,000 random pairs of entities under one key THEN each accepts about 1 in 61 of the other's public ids", () => {
    const [entities] = fc.sample(
      fc.uniqueArray(fc.string({ minLength: 1, maxLength: 20 }), { minLength: CODECS, maxLength: CODECS }),
      { numRuns: 1, seed: 4603 },
    ) as [string[]];
    const key = 'c0ffee00c0ffee00c0ffee00c0ffee00';
    expectNearOneIn61(acceptedPerPair(entities.map((entity) => publicIdCodec({ key, entity }))));
  });

  test("GIVEN 1,000 random pairs of keys with the same key id THEN each accepts about 1 in 61 of the other's public ids", () => {
    const [keys] = fc.sample(
      fc.uniqueArray(fc.noBias(fc.uint8Array({ minLength: 16, maxLength: 16 })), {
        minLength: CODECS,
        maxLength: CODECS,
        selector: (k) => k.join(','),
      }),
      { numRuns: 1, seed: 4604 },
    ) as [Uint8Array[]];
    expectNearOneIn61(acceptedPerPair(keys.map((key) => publicIdCodec({ key, entity: 'order' }))));
  });
});
