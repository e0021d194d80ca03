import { afterEach, describe, expect, test, vi } from 'vitest';
import { monotonicClockOf } from '../src/clock.js';
import { monotonicClock } from '../src/index.js';

/** A `performance`-like source the test moves by hand. */
function fakePerformance(timeOrigin: number) {
  let now = 0;
  return {
    source: { timeOrigin, now: () => now },
    advance(ms: number) {
      now += ms;
    },
    setOrigin(ms: number) {
      this.source.timeOrigin = ms;
    },
  };
}

const START = Date.UTC(2026, 0, 1);

describe('monotonicClock, the default clock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  test('GIVEN a performance source THEN each reading is its time origin plus its now(), fractions kept', () => {
    const perf = fakePerformance(START);
    const clock = monotonicClockOf(perf.source);
    expect(clock()).toBe(START);
    perf.advance(1.25);
    expect(clock()).toBe(START + 1.25);
    perf.advance(1000);
    expect(clock()).toBe(START + 1001.25);
  });

  test('GIVEN the time origin changes after the clock was made THEN the clock keeps the origin it read once', () => {
    const perf = fakePerformance(START);
    const clock = monotonicClockOf(perf.source);
    perf.advance(10);
    perf.setOrigin(START - 60_000); // what a wall-clock step back would look like, were it read again
    expect(clock()).toBe(START + 10);
  });

  test('GIVEN the real clock THEN it reads performance.timeOrigin + performance.now(), between two reads of them', () => {
    const before = performance.timeOrigin + performance.now();
    const reading = monotonicClock();
    const after = performance.timeOrigin + performance.now();
    expect(reading).toBeGreaterThanOrEqual(before);
    expect(reading).toBeLessThanOrEqual(after);
  });

  test('GIVEN the wall clock is stepped back a year and then forward a year THEN the real clock never goes back and does not follow the steps', () => {
    vi.useFakeTimers({ toFake: ['Date'] }); // Date only: performance.now() keeps running
    const readings: number[] = [monotonicClock()];
    const wall = Date.now();
    vi.setSystemTime(wall - 365 * 86_400_000);
    readings.push(monotonicClock());
    vi.setSystemTime(wall + 365 * 86_400_000);
    readings.push(monotonicClock());
    for (let i = 1; i < readings.length; i++) expect(readings[i]).toBeGreaterThanOrEqual(readings[i - 1]!);
    // It moved by the microseconds the test took, not by the steps of a year.
    expect(readings[2]! - readings[0]!).toBeLessThan(60_000);
    expect(Math.abs(readings[2]! - (performance.timeOrigin + performance.now()))).toBeLessThan(60_000);
  });
});
