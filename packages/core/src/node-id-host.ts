import { networkInterfaces, hostname as osHostname } from 'node:os';
import { InvalidArgumentError } from './errors.js';
import type { Layout } from './layout.js';
import { layouts } from './layouts.js';

/**
 * A packed node id from the host name's ordinal (`game-7`), else its hash, which can collide:
 * prefer a lease.
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
 * A packed node id from an IPv4 address's low bits, unique only while every node's low bits differ.
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
