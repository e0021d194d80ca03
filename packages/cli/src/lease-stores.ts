import { type Clock, InvalidArgumentError } from '@snowkey/core';
import { inspectSqlLeases, type LeaseInspector } from '@snowkey/core/adapter';
import { openDatabase } from '@snowkey/merge';

/** A lease store the `leases` command can open, chosen by the URL's scheme. */
export interface LeaseStoreKind {
  /** The schemes it serves, for help and errors: `postgres://`, ... */
  readonly schemes: readonly string[];
  matches(url: string): boolean;
  open(url: string, options: { table?: string; clock?: Clock }): Promise<OpenedLeaseStore>;
}

export interface OpenedLeaseStore {
  readonly inspector: LeaseInspector;
  close(): Promise<void>;
}

/** The lease table of a SQL database, opened with the drivers `merge` uses. */
const sqlStore: LeaseStoreKind = {
  schemes: ['postgres://', 'mysql://', 'mariadb://', 'file:', 'sqlite:'],
  matches: (url) => /^(postgres(ql)?|mysql|mariadb):\/\//.test(url) || /^(file|sqlite):/.test(url),
  async open(url, options) {
    const db = await openDatabase(url, { poolSize: 1 });
    return { inspector: inspectSqlLeases(db, options), close: () => db.close() };
  },
};

/**
 * Leases kept in etcd by `@snowkey/etcd`: `etcd://host:2379,host:2379/<prefix>` (`etcds://` for
 * TLS with the system's CAs), the key prefix in the path (default `snowkey/leases/`).
 */
const etcdStore: LeaseStoreKind = {
  schemes: ['etcd://', 'etcds://'],
  matches: (url) => /^etcds?:\/\//.test(url),
  async open(url, options) {
    if (options.table !== undefined) {
      throw new InvalidArgumentError(
        '--table',
        "no --table with an etcd URL: the key prefix goes in the URL's path (etcd://host:2379/snowkey/leases/)",
        options.table,
      );
    }
    const { hosts, prefix } = parseEtcdUrl(url);
    let modules: [typeof import('etcd3'), typeof import('@snowkey/etcd')];
    try {
      modules = await Promise.all([import('etcd3'), import('@snowkey/etcd')]);
    } catch {
      throw new InvalidArgumentError(
        '--url',
        'an etcd URL with the etcd3 package installed beside the CLI (npm install etcd3)',
        url,
      );
    }
    const [{ Etcd3 }, { inspectEtcdLeases }] = modules;
    const client = new Etcd3({ hosts });
    return {
      inspector: inspectEtcdLeases(client, { prefix, clock: options.clock }),
      close: async () => client.close(),
    };
  },
};

/** `etcd://h1:2379,h2:2379/snowkey/leases/` as etcd3's hosts and the key prefix. */
export function parseEtcdUrl(url: string): { hosts: string[]; prefix: string | undefined } {
  const m = /^(etcds?):\/\/([^/?#]+)(\/[^?#]*)?$/.exec(url);
  const hostList = m?.[2]?.split(',') ?? [];
  if (!m || !hostList.every((h) => /^[\w.-]+:\d{1,5}$|^\[[\da-fA-F:]+\]:\d{1,5}$/.test(h))) {
    throw new InvalidArgumentError(
      '--url',
      'an etcd URL: etcd://host:port[,host:port...][/key-prefix/] (etcds:// for TLS)',
      url,
    );
  }
  const scheme = m[1] === 'etcds' ? 'https' : 'http';
  const path = m[3]?.replace(/^\//, '') ?? '';
  return { hosts: hostList.map((h) => `${scheme}://${h}`), prefix: path === '' ? undefined : path };
}

/** Every store by scheme. */
export const LEASE_STORES: readonly LeaseStoreKind[] = [sqlStore, etcdStore];

/** Opens the lease store of `url`; an unknown scheme lists the known ones. */
export async function openLeaseStore(
  url: string | undefined,
  options: { table?: string; clock?: Clock },
): Promise<OpenedLeaseStore> {
  const schemes = LEASE_STORES.flatMap((s) => s.schemes).join(', ');
  const kind = url === undefined ? undefined : LEASE_STORES.find((s) => s.matches(url));
  if (!kind || url === undefined) {
    throw new InvalidArgumentError('--url', `the lease store's URL (${schemes}), or DATABASE_URL set`, url);
  }
  return kind.open(url, options);
}
