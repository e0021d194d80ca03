import { InvalidArgumentError } from './errors.js';

/** A clock: milliseconds since 1970 (fractions allowed). */
export type Clock = () => number;

/**
 * The default clock: the wall clock at start-up advanced by `performance.now()`, so a wall-clock
 * jump cannot repeat or reorder ids (it may drift from the wall clock by parts per million).
 */
export const monotonicClock: Clock = monotonicClockOf(performance);

/** The monotonic clock over a `performance`-like source (tests give their own). */
export function monotonicClockOf(source: { readonly timeOrigin: number; now(): number }): Clock {
  const origin = source.timeOrigin;
  return () => origin + source.now();
}

/**
 * A clock for tests that moves only when told, or by `autoAdvanceMs` on every read.
 *
 * @example
 * const clock = manualClock(Date.UTC(2026, 0, 1));
 * const gen = new Snowflake({ workerId: 1, clock: clock.now });
 * clock.advance(5);
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

// Checked here, or NaN surfaces as a RangeError from BigInt() deep in the generator, or in a lease row.
/** Reads `clock`; a reading that is not a finite number is an {@link InvalidArgumentError}. */
export function readClock(clock: Clock): number {
  const ms = clock();
  if (typeof ms !== 'number' || !Number.isFinite(ms)) {
    throw new InvalidArgumentError('clock', 'a function returning a finite number of ms since 1970', ms);
  }
  return ms;
}
