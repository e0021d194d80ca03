import { type IdGenerator, layouts, Snowflake } from '@snowkey/core';

/**
 * A generator that hands out the ids a test plans (2^63-1, 2^53+1) in the order they were
 * planned, and real Snowflake ids (clock injected) when none is planned. The adapters accept any
 * `nextId(): bigint`, so the planned ids go through the same insert path as every other.
 *
 * @example
 * const ids = plannedIds();
 * ids.plan(9223372036854775807n); // the next insert gets it
 */
export function plannedIds(): IdGenerator & { plan(id: bigint): void } {
  const queue: bigint[] = [];
  let now = Date.UTC(2026, 5, 1);
  const snowflake = new Snowflake({ layout: layouts.default, workerId: 11, clock: () => now++ });
  return {
    plan: (id) => void queue.push(id),
    nextId: () => queue.shift() ?? snowflake.nextId(),
  };
}
