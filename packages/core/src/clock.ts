import { InvalidArgumentError } from './errors.js';

/**
 * A clock: milliseconds since 1970 (fractions allowed).
 *
 * @example
 * const clock: Clock = () => Date.now();
 */
export type Clock = () => number;

/**
 * The default clock: the wall clock read once, when the process started
 * (`performance.timeOrigin`), then advanced by the monotonic `performance.now()`. A wall-clock
 * jump while the process runs (NTP step, an operator) cannot move it, so it can neither repeat
 * nor reorder ids. It does not follow later wall-clock corrections: over days it may drift from
 * the wall clock by the machine's oscillator error (parts per million).
 *
 * @example
 * const now = monotonicClock(); // e.g. 1763760000123.456
 */
export const monotonicClock: Clock = monotonicClockOf(performance);

/**
 * The monotonic clock over a `performance`-like source: its `timeOrigin` read once, now, plus
 * its `now()` at every read. {@link monotonicClock} is this over the global `performance`; tests
 * give their own source.
 *
 * @example
 * const clock = monotonicClockOf({ timeOrigin: Date.UTC(2026, 0, 1), now: () => 5.5 });
 * clock(); // Date.UTC(2026, 0, 1) + 5.5
 */
export function monotonicClockOf(source: { readonly timeOrigin: number; now(): number }): Clock {
  const origin = source.timeOrigin;
  return () => origin + source.now();
}

/**
 * A clock for tests: it reads `start` and moves only when told. Pass `autoAdvanceMs` to move it
 * on every read, so waits end without sleeping.
 *
 * @example
 * const clock = manualClock(Date.UTC(2026, 0, 1));
 * const gen = new Snowflake({ workerId: 1, clock: clock.now });
 * clock.advance(5); clock.set(Date.UTC(2026, 0, 1) - 5000); // jump back 5 s
 */
export function manualClock(start: number, autoAdvanceMs = 0) {
  let t = start;
  return {
    now: (() => {
      const v = t;
      t += autoAdvanceMs;
      return v;
    }) as Clock,
    advance(ms: number) {
      t += ms;
    },
    set(ms: number) {
      t = ms;
    },
    get current() {
      return t;
    },
  };
}

/**
 * Reads `clock` and checks the reading. A clock that returns NaN, Infinity or a non-number would
 * otherwise surface as a RangeError from BigInt() deep inside the generator, or as NaN written
 * into a lease row; here it is an {@link InvalidArgumentError} naming the clock and the reading.
 *
 * @example
 * readClock(() => Date.now()); // 1767225600000
 * readClock(() => Number.NaN); // InvalidArgumentError: "clock" must be a function returning a finite number of ms since 1970 (received NaN)
 */
export function readClock(clock: Clock): number {
  const ms = clock();
  if (typeof ms !== 'number' || !Number.isFinite(ms)) {
    throw new InvalidArgumentError('clock', 'a function returning a finite number of ms since 1970', ms);
  }
  return ms;
}
