/**
 * A lock: each function passed to the returned runner starts after the previous one settled.
 * SQLite has one connection, so the engine's statements and transactions take turns on it.
 */
export function serialized(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>) => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => {});
    return run;
  };
}
