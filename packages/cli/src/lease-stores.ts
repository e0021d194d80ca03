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

/** Every store by scheme. Another store (etcd, ...) is one more entry. */
export const LEASE_STORES: readonly LeaseStoreKind[] = [sqlStore];

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
