import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const fixture = fileURLToPath(new URL('./fixtures/burst-process.ts', import.meta.url));

/** One process life of node `workerId`: created at `createdAtMs`, issuing while its clock stands at `runAtMs`. */
function life(workerId: number, count: number, createdAtMs: number, runAtMs: number, maxBorrowMs: number) {
  const args = [workerId, count, createdAtMs, runAtMs, maxBorrowMs].map(String);
  const out = execFileSync(
    process.execPath,
    ['--conditions=dev-source', '--import', 'tsx', fixture, ...args],
    {
      encoding: 'utf8',
    },
  );
  const r = JSON.parse(out.trim());
  return { first: BigInt(r.first), last: BigInt(r.last), lastTimestamp: r.lastTimestamp as number };
}

test('GIVEN a process that borrowed ahead of the clock and died THEN a restart with the same node id never repeats an id', () => {
  const t0 = Date.UTC(2026, 0, 1);
  // past its start guard (t0 + 50 ms), 40 ms of sequences at a clock that stands still: it borrows ahead
  const first = life(9, 4096 * 40, t0, t0 + 51, 50);
  // restarted at t0 + 60 ms and issuing at t0 + 61 ms, inside the first life's borrowed range
  const second = life(9, 1000, t0 + 60, t0 + 61, 50);
  // the hazard was real: the first life's ids reached past the moment the second life started
  expect(first.lastTimestamp).toBeGreaterThan(t0 + 60);
  // and the restart guard put every id of the second life above every id of the first
  expect(second.first > first.last).toBe(true);
});
