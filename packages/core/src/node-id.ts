import { InvalidArgumentError } from './errors.js';
import type { Layout } from './layout.js';
import { layouts } from './layouts.js';

/** `workerId` → `WORKER_ID`. */
function envName(field: string): string {
  return field.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

/**
 * Node ids from `SNOWKEY_NODE_ID` (packed) or `SNOWKEY_<FIELD>`, as options for `new Snowflake`.
 *
 * @example
 * // SNOWKEY_WORKER_ID=7
 * const gen = new Snowflake({ ...nodeIdFromEnv() }); // workerId 7
 */
export function nodeIdFromEnv<F extends string = 'workerId'>(
  options: { layout?: Layout<F>; env?: Readonly<Record<string, string | undefined>>; prefix?: string } = {},
): { readonly [K in NoInfer<F>]: number } | { readonly nodeId: number } {
  const layout = options.layout ?? layouts.default;
  const env = options.env ?? processEnv();
  const prefix = options.prefix ?? 'SNOWKEY_';
  const read = (name: string, max: number): number => {
    const raw = env[name];
    if (raw === undefined || !/^\d+$/.test(raw.trim()) || Number(raw) > max) {
      throw new InvalidArgumentError(name, `an environment variable holding an integer in 0..${max}`, raw);
    }
    return Number(raw);
  };
  const packedName = `${prefix}NODE_ID`;
  if (env[packedName] !== undefined) return { nodeId: read(packedName, 2 ** layout.nodeBitsTotal - 1) };
  const out: Record<string, number> = {};
  for (const f of layout.nodeFields) out[f.name] = read(`${prefix}${envName(f.name)}`, f.max);
  return out as { readonly [K in F]: number };
}

/** `process.env` where the runtime has one (Node, Bun, Deno); elsewhere the caller must pass `env`. */
function processEnv(): Readonly<Record<string, string | undefined>> {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  if (!env) {
    throw new InvalidArgumentError(
      'env',
      'given where the runtime has no process.env (browsers, Workers)',
      env,
    );
  }
  return env;
}
