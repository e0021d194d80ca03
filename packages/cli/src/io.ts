import type { Clock } from '@snowkey/core';

/**
 * Where the CLI reads and writes. The bin passes the process's streams; tests pass strings
 * collectors, an environment and a clock, so every command runs in-process.
 */
export interface CliIo {
  /** Receives normal output (ids, decoded fields, layout facts). */
  stdout(text: string): void;
  /** Receives error messages and usage. */
  stderr(text: string): void;
  /** Environment for node ids (`SNOWKEY_WORKER_ID`, `SNOWKEY_NODE_ID`, ...). */
  env: Readonly<Record<string, string | undefined>>;
  /** Clock for `generate` (ms since 1970). Default: core's monotonic clock. */
  clock?: Clock;
  /** stderr is a terminal: `merge run` and `rekey` draw a progress bar there, else print plain lines. */
  stderrIsTTY?: boolean;
}

/** The process's own streams and environment. */
export function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    stderrIsTTY: process.stderr.isTTY === true,
  };
}
