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
  const label = `${adapter} ${variant}`;
  await reply(child, label, 'ready');
  return {
    async write(path, rows, offset) {
      child.send({ type: 'write', path, rows, offset } satisfies ChildRequest);
      const { wall, cpu } = await reply(child, label, 'written');
      return { wall, cpu };
    },
    async close() {
      if (!child.connected) return; // it exited, and the call that met it reported why
      child.send({ type: 'close' } satisfies ChildRequest);
      await reply(child, label, 'closed');
    },
  };
}

/** The child's next message, which must be of `type` (one request is ever outstanding). */
function reply<T extends ChildReply['type']>(
  child: ChildProcess,
  label: string,
  type: T,
): Promise<Extract<ChildReply, { type: T }>> {
  return new Promise((resolve, reject) => {
    const exited = (code: number | null, signal: string | null) =>
      reject(new Error(`the ${label} child exited (${signal ?? code}) with no reply`));
    child.once('exit', exited);
    child.once('message', (message: ChildReply) => {
      child.off('exit', exited);
      if (message.type === 'failed') reject(new Error(`clock child failed: ${message.error}`));
      else if (message.type !== type)
        reject(new Error(`clock child answered ${message.type}, expected ${type}`));
      else resolve(message as Extract<ChildReply, { type: T }>);
    });
  });
}
