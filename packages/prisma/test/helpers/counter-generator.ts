import type { IdGenerator } from '@snowkey/core';

/** A generator whose ids are known in advance: `start`, `start + 1`, ... It records what it issued. */
export function counterGenerator(start: bigint): IdGenerator & { readonly issued: bigint[]; peek(): bigint } {
  let next = start;
  const issued: bigint[] = [];
  return {
    issued,
    peek: () => next,
    nextId() {
      issued.push(next);
      return next++;
    },
  };
}
