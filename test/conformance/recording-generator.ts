import type { IdGenerator } from '@snowkey/core';

/** A generator that remembers every id it handed out, so a test can tell generated ids from others. */
export interface RecordingGenerator extends IdGenerator {
  readonly issued: ReadonlySet<bigint>;
}

/**
 * Wraps `inner` (both `nextId` and, when present, `nextIds`) and records what it issues.
 *
 * @example
 * const gen = recordingGenerator(new Snowflake({ workerId: 1 }));
 * const id = gen.nextId();
 * gen.issued.has(id); // true
 */
export function recordingGenerator(inner: IdGenerator): RecordingGenerator {
  const issued = new Set<bigint>();
  const generator: RecordingGenerator = {
    issued,
    nextId() {
      const id = inner.nextId();
      issued.add(id);
      return id;
    },
  };
  const batch = inner.nextIds?.bind(inner);
  if (batch) {
    generator.nextIds = (count: number) => {
      const ids = batch(count);
      for (const id of ids) issued.add(id);
      return ids;
    };
  }
  return generator;
}
