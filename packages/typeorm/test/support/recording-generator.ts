import type { IdGenerator } from '@snowkey/core';

/** Wraps a generator and remembers every id it handed out, in order. */
export function recording(inner: IdGenerator): IdGenerator & { readonly issued: bigint[] } {
  const issued: bigint[] = [];
  return {
    issued,
    nextId() {
      const id = inner.nextId();
      issued.push(id);
      return id;
    },
  };
}
