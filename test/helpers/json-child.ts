import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A TypeScript fixture running in its own Node process: its JSON events as they arrive, and how it ended. */
export interface JsonChild {
  readonly process: ChildProcess;
  readonly events: Record<string, unknown>[];
  /** Resolves with the first event that matches (rejects if the process ends first). */
  waitFor(match: (event: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  /** Writes a line to its stdin (a go-ahead the fixture may wait for). */
  go(): void;
  /** Resolves with the exit code (or the signal) and stderr once the process ends. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/**
 * Starts `script` (a .ts file, run through tsx with the dev-source condition) with `env` added to
 * this process's environment. The fixture reports one JSON object per line on stdout.
 *
 * @example
 * const child = startJsonChild(join(here, 'fixtures', 'lease-child.ts'), { LEASE_COUNT: '1000' });
 * await child.waitFor((e) => e.event === 'done');
 */
export function startJsonChild(script: string, env: Record<string, string | number>): JsonChild {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const [k, v] of Object.entries(env)) childEnv[k] = String(v);
  const child = spawn(process.execPath, ['--conditions=dev-source', '--import', 'tsx', script], {
    cwd: ROOT,
    env: childEnv,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const events: Record<string, unknown>[] = [];
  const waiters: {
    match: (e: Record<string, unknown>) => boolean;
    resolve: (e: Record<string, unknown>) => void;
  }[] = [];
  let stderr = '';
  let buffered = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    let nl = buffered.indexOf('\n');
    while (nl !== -1) {
      const event = JSON.parse(buffered.slice(0, nl)) as Record<string, unknown>;
      buffered = buffered.slice(nl + 1);
      events.push(event);
      for (const w of [...waiters]) {
        if (w.match(event)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(event);
        }
      }
      nl = buffered.indexOf('\n');
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
    (resolve) => {
      child.on('exit', (code, signal) => resolve({ code, signal, stderr }));
    },
  );
  return {
    process: child,
    events,
    exited,
    go() {
      child.stdin.end('go\n');
    },
    waitFor(match) {
      const seen = events.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        waiters.push({ match, resolve });
        exited.then(({ code, signal, stderr: err }) =>
          reject(new Error(`child exited (${code ?? signal}) before the awaited event:\n${err}`)),
        );
      });
    },
  };
}
