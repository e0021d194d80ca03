/**
 * Exit statuses: 0 done, 1 a failure (a merge that did not verify, a conflict under `fail`, an
 * unexpected error), 2 bad usage (unknown layout, bad id, bad flag, a resume with other inputs).
 */
export const ExitCode = Object.freeze({ ok: 0, failure: 1, usage: 2 });

/** The error codes that mean the user's input was wrong (exit 2); every other error exits 1. */
export const USAGE_ERROR_CODES: ReadonlySet<string> = new Set([
  'SNOWKEY_INVALID_ARGUMENT',
  'SNOWKEY_INVALID_ID',
  'SNOWKEY_INVALID_PUBLIC_ID',
  'SNOWKEY_INVALID_LAYOUT',
  'SNOWKEY_DATABASE_NOT_FOUND',
  'SNOWKEY_MERGE_INPUTS_CHANGED',
  'SNOWKEY_MISSING_DRIVER',
]);

/**
 * The `code` of a snowkey error, read as a property: core's entry points may each carry their own
 * copy of the error classes (CommonJS builds are not split), so `instanceof` is not relied on.
 */
export function errorCode(err: unknown): string | undefined {
  const code = err instanceof Error ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('SNOWKEY_') ? code : undefined;
}

/** The exit status of an error that reached the CLI, by its code. */
export function exitStatusOf(err: unknown): number {
  const code = errorCode(err);
  return code !== undefined && USAGE_ERROR_CODES.has(code) ? ExitCode.usage : ExitCode.failure;
}
