import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const fixture = fileURLToPath(new URL('./fixtures/burst-process.ts', import.meta.url));

function life(workerId: number, count: number) {
  const out = execFileSync(
    process.execPath,
    ['--conditions=dev-source', '--import', 'tsx', fixture, String(workerId), String(count)],
    {
      encoding: 'utf8',
    },
  );
  const r = JSON.parse(out.trim());
  return { ...r, first: BigInt(r.first), last: BigInt(r.last) } as {
    startedAt: number;
    endedAt: number;
    first: bigint;
    last: bigint;
    lastTimestamp: number;
  };
}

test('GIVEN a process that borrowed ahead of the clock and died THEN a restart with the same node id never repeats an id', () => {
  // 25M ids at tens of millions/s: the generator borrows up to its 5 s limit ahead of the clock.
  const first = life(9, 25_000_000);
  const second = life(9, 200_000);
  // the hazard was real: the first life's ids reached past the moment the second life started
  expect(first.lastTimestamp).toBeGreaterThan(second.startedAt);
  // and the restart guard put every id of the second life above every id of the first
  expect(second.first > first.last).toBe(true);
}, 60_000);
