export { ExitCode, USAGE_ERROR_CODES } from './exit-status.js';
export type { CliIo } from './io.js';
export { run } from './run.js';
