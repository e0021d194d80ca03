import type { SignalName } from './lease-options.js';

/** What is to be released on each signal; one process listener per signal serves them all. */
const pending = new Map<
  SignalName,
  { readonly releases: Set<() => Promise<void>>; readonly listener: () => void }
>();

/**
 * Runs `release` when `signal` arrives, then lets the signal take its usual course (re-raises it)
 * once **every** release registered for that signal has settled and nobody else listens for it.
 * One shared listener, so a process holding several leases releases them all before it dies.
 * A release still running after `timeoutMs` is given up on, so a hung database cannot keep a
 * terminating process alive. Returns the function that unregisters `release`.
 */
export function releaseOnSignal(
  signal: SignalName,
  release: () => Promise<void>,
  timeoutMs = 5000,
): () => void {
  const bounded = () => withTimeout(release(), timeoutMs);
  let entry = pending.get(signal);
  if (!entry) {
    const releases = new Set<() => Promise<void>>();
    const listener = () => {
      pending.delete(signal);
      process.off(signal, listener);
      Promise.allSettled([...releases].map((r) => r())).then(() => {
        // Our listener replaced the default action; give it back when nobody else handles the signal.
        if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
      });
    };
    entry = { releases, listener };
    pending.set(signal, entry);
    process.on(signal, listener);
  }
  const { releases, listener } = entry;
  releases.add(bounded);
  return () => {
    releases.delete(bounded);
    if (releases.size === 0 && pending.get(signal)?.listener === listener) {
      pending.delete(signal);
      process.off(signal, listener);
    }
  };
}

/**
 * Settles when `promise` does or after `ms`, whichever comes first. The timer is deliberately not
 * unref'd: it keeps the dying process alive for at most `ms` while the release runs.
 */
function withTimeout(promise: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
