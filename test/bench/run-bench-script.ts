import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Runs one of the bench's scripts as `pnpm bench:insert*` does (Node with tsx, from the project
 * root, without the test runner's NODE_OPTIONS) and resolves to what it printed; a non-zero exit
 * rejects with its output.
 */
export async function runBenchScript(script: string, args: readonly string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: root,
    env: { ...process.env, NODE_OPTIONS: '' },
    maxBuffer: 16 * 2 ** 20,
  });
  return stdout;
}
