/**
 * The acceptance region [lo, hi] of a count that is Binomial(n, p): a count outside it has
 * probability at most `alpha` (at most alpha / 2 on each side), computed from the exact
 * probabilities. For property tests that assert a rate without ever failing by chance.
 *
 * @example
 * const [lo, hi] = binomialBounds(4000, 1 / 61, 1e-12); // [17, 131] around the mean 65.6
 */
export function binomialBounds(n: number, p: number, alpha: number): [lo: number, hi: number] {
  // pmf(k + 1) = pmf(k) * (n - k) / (k + 1) * p / (1 - p), from pmf(0) = (1 - p)^n; fine while
  // (1 - p)^n stays a normal double (n * p up to about 700).
  const pmf = new Float64Array(n + 1);
  pmf[0] = (1 - p) ** n;
  if (pmf[0] === 0) throw new RangeError(`binomialBounds: (1 - p)^n underflows for n = ${n}, p = ${p}`);
  for (let k = 0; k < n; k++) pmf[k + 1] = (pmf[k]! * (n - k) * p) / ((k + 1) * (1 - p));
  let lo = 0;
  for (let tail = 0; tail + pmf[lo]! <= alpha / 2; lo++) tail += pmf[lo]!;
  let hi = n;
  for (let tail = 0; tail + pmf[hi]! <= alpha / 2; hi--) tail += pmf[hi]!;
  return [lo, hi];
}
