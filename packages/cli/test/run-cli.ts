import { run } from '../src/index.js';
import type { CliIo } from '../src/io.js';

/** Runs the CLI in-process and captures what it prints. No environment unless given. */
export async function runCli(argv: string[], io: Partial<CliIo> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    env: {},
    ...io,
    stdout: (s) => {
      stdout += s;
    },
    stderr: (s) => {
      stderr += s;
    },
  });
  return { code, stdout, stderr };
}
