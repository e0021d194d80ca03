import { type ChildProcess, fork } from 'node:child_process';
import type { Variant } from './adapters/adapter-bench.js';
import type { BenchDatabase } from './bench-database.js';

/** What the parent asks of a clock child, and what it answers. */
export type ChildRequest =
  | { readonly type: 'write'; readonly path: number; readonly rows: number; readonly offset: number }
  | { readonly type: 'close' };

export type ChildReply =
  | { readonly type: 'ready' }
  | { readonly type: 'written'; readonly wall: number; readonly cpu: number }
  | { readonly type: 'closed' }
  | { readonly type: 'failed'; readonly error: string };

/** One write's wall seconds and the child's CPU seconds during it. */
export interface WriteTimes {
  readonly wall: number;
  readonly cpu: number;
}

/** An adapter open in one variant, in a Node process of its own (clock-child.ts). */
export interface VariantProcess {
  write(path: number, rows: number, offset: number): Promise<WriteTimes>;
  close(): Promise<void>;
}

/** Starts clock-child.ts under tsx's ESM hook only (its CJS hook would tax every driver `require()`). */
export async function startVariantProcess(
  db: BenchDatabase,
  adapter: string,
  variant: Variant,
): Promise<VariantProcess> {
  const { dialect, name, url, filename, connection } = db.database;
  const child = fork(
    new URL('./clock-child.ts', import.meta.url).pathname,
    [variant, adapter, JSON.stringify({ dialect, name, url, filename, connection })],
    { execArgv: ['--import', 'tsx/esm'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const next = replies(child, `${adapter} ${variant}`);
  await expect(next, 'ready');
  return {
    async write(path, rows, offset) {
      child.send({ type: 'write', path, rows, offset } satisfies ChildRequest);
      const reply = await expect(next, 'written');
      return { wall: reply.wall, cpu: reply.cpu };
    },
    async close() {
      if (!child.connected) return;
      child.send({ type: 'close' } satisfies ChildRequest);
      await expect(next, 'closed');
    },
  };
}

/** The child's replies in order: each call resolves to the next one. */
function replies(child: ChildProcess, label: string): () => Promise<ChildReply> {
  const queue: ChildReply[] = [];
  const waiting: { resolve(r: ChildReply): void; reject(e: Error): void }[] = [];
  let ended: Error | undefined;
  child.on('message', (message: ChildReply) => {
    const waiter = waiting.shift();
    if (waiter) waiter.resolve(message);
    else queue.push(message);
  });
  child.on('exit', (code, signal) => {
    ended = new Error(`the ${label} child exited (${signal ?? code}) with no reply`);
    for (const waiter of waiting.splice(0)) waiter.reject(ended);
  });
  return () => {
    const queued = queue.shift();
    if (queued) return Promise.resolve(queued);
    if (ended) return Promise.reject(ended);
    return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  };
}

async function expect<T extends ChildReply['type']>(
  next: () => Promise<ChildReply>,
  type: T,
): Promise<Extract<ChildReply, { type: T }>> {
  const reply = await next();
  if (reply.type === 'failed') throw new Error(`clock child failed: ${reply.error}`);
  if (reply.type !== type) throw new Error(`clock child answered ${reply.type}, expected ${type}`);
  return reply as Extract<ChildReply, { type: T }>;
}
