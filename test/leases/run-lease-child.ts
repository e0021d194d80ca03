import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestDatabase } from '../helpers/test-database.js';

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'lease-child.ts');
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** One `lease-child.ts` process: its JSON events as they arrive, and how it ended. */
export interface LeaseChild {
  readonly process: ChildProcess;
  readonly events: Record<string, unknown>[];
  /** Resolves with the first event that matches (rejects if the process ends first). */
  waitFor(match: (event: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  /** Writes a line to its stdin: the go-ahead for a child started with LEASE_WAIT_FOR_GO=1. */
  go(): void;
  /** Resolves with the exit code (or the signal) and stderr once the process ends. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Starts `fixtures/lease-child.ts` against `db` with the given LEASE_* settings. */
export function startLeaseChild(db: TestDatabase, settings: Record<string, string | number>): LeaseChild {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LEASE_DIALECT: db.dialect,
    LEASE_URL: db.filename ?? db.url,
  };
  for (const [k, v] of Object.entries(settings)) env[k] = String(v);
  const child = spawn(process.execPath, ['--conditions=dev-source', '--import', 'tsx', CHILD], {
    cwd: ROOT,
    env,
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
          reject(new Error(`lease child exited (${code ?? signal}) before the awaited event:\n${err}`)),
        );
      });
    },
  };
}
