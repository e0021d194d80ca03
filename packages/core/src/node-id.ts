import { networkInterfaces, hostname as osHostname } from 'node:os';
import { InvalidArgumentError } from './errors.js';
import type { Layout } from './layout.js';
import { layouts } from './layouts.js';

/** `workerId` → `WORKER_ID`. */
function envName(field: string): string {
  return field.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

/**
 * Reads node ids from environment variables: `SNOWKEY_NODE_ID` (all node bits packed) or one
 * variable per node field, `SNOWKEY_<FIELD>` in upper snake case (`SNOWKEY_WORKER_ID`,
 * `SNOWKEY_DATACENTER_ID`, `SNOWKEY_SERVER_ID`). Returns options to spread into `new Snowflake`.
 * A missing or malformed variable is an {@link InvalidArgumentError} naming it.
 *
 * @example
 * // SNOWKEY_WORKER_ID=7
 * const gen = new Snowflake({ ...nodeIdFromEnv() }); // workerId 7
 */
export function nodeIdFromEnv(
  options: { layout?: Layout; env?: Readonly<Record<string, string | undefined>>; prefix?: string } = {},
): Record<string, number> {
  const layout = options.layout ?? layouts.default;
  const env = options.env ?? process.env;
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
  return out;
}

/**
 * Derives a packed node id from the host name. A name ending in an ordinal (`game-7`, the
 * Kubernetes StatefulSet form) gives that ordinal; any other name is hashed (FNV-1a) into the
 * node bits, which CAN collide: see the README's table of collision risk. Containers often get
 * random host names, so hashed ids change on every start; prefer a lease.
 *
 * @example
 * new Snowflake({ nodeId: nodeIdFromHostname({ hostname: 'game-7' }) }); // workerId 7
 */
export function nodeIdFromHostname(options: { layout?: Layout; hostname?: string } = {}): number {
  const layout = options.layout ?? layouts.default;
  const name = options.hostname ?? osHostname();
  const max = 2 ** layout.nodeBitsTotal - 1;
  if (typeof name !== 'string' || name.length === 0) {
    throw new InvalidArgumentError('hostname', 'a non-empty string', name);
  }
  const ordinal = /-(\d+)$/.exec(name);
  if (ordinal && Number(ordinal[1]) <= max) return Number(ordinal[1]);
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % (max + 1);
}

/**
 * Derives a packed node id from the low bits of an IPv4 address (Sonyflake's default: the lower
 * 16 bits of the private IP). Unique only while every node's address differs in those low bits,
 * e.g. one /22 subnet for 10 node bits.
 *
 * @example
 * nodeIdFromIp({ ip: '10.0.3.7' }); // (3 << 8 | 7) & 1023 = 775
 */
export function nodeIdFromIp(options: { layout?: Layout; ip?: string } = {}): number {
  const layout = options.layout ?? layouts.default;
  const ip = options.ip ?? firstPrivateIPv4();
  const m = typeof ip === 'string' ? /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip) : null;
  const parts = m ? m.slice(1).map(Number) : [];
  if (!m || parts.some((p) => p > 255)) {
    throw new InvalidArgumentError('ip', 'an IPv4 address such as "10.0.3.7"', ip);
  }
  const value = parts.reduce((acc, p) => acc * 256 + p, 0);
  return value % 2 ** layout.nodeBitsTotal;
}

function firstPrivateIPv4(): string | undefined {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return undefined;
}
