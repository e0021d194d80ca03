export type { CliIo } from './io.js';
export { ExitCode, run } from './run.js';
