/** `<label>/<acquired ISO time>/<random>`, unique per claim; the lease only compares the whole. */
export function holderToken(label: string, acquiredAt: number): string {
  return `${label}/${new Date(acquiredAt).toISOString()}/${randomToken()}`;
}

/** The parts of a holder token; a token of another form is all label. */
export function parseHolderToken(holder: string): { label: string; acquiredAt?: number; token?: string } {
  const m = /^(.*)\/(\d{4}-\d{2}-\d{2}T[\d:.]+Z)\/([^/]+)$/.exec(holder);
  if (m) {
    const acquiredAt = Date.parse(m[2]!);
    if (Number.isFinite(acquiredAt)) return { label: m[1]!, acquiredAt, token: m[3]! };
  }
  const slash = holder.lastIndexOf('/');
  return slash < 0 ? { label: holder } : { label: holder.slice(0, slash), token: holder.slice(slash + 1) };
}

/**
 * The default label: `pid-<pid>@<host>` in Node (the host name is what tells two pods apart),
 * `pid-<pid>` where the runtime has no host name. The main entry imports no Node built-in, so
 * the host name comes through `process.getBuiltinModule` when the runtime has it.
 */
export function defaultHolderLabel(): string {
  const proc = (globalThis as { process?: ProcessLike }).process;
  const pid = `pid-${typeof proc?.pid === 'number' ? proc.pid : 0}`;
  let host: string | undefined;
  try {
    host = proc?.getBuiltinModule?.('node:os')?.hostname();
  } catch {
    host = undefined;
  }
  return host ? `${pid}@${host}`.slice(0, 150) : pid;
}

interface ProcessLike {
  readonly pid?: number;
  getBuiltinModule?(id: 'node:os'): { hostname(): string } | undefined;
}

function randomToken(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
}
