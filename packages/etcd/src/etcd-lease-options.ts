import { InvalidArgumentError } from '@snowkey/core';
import {
  type NodeLeaseOptions,
  positiveMs,
  type ResolvedNodeLeaseOptions,
  resolveNodeLeaseOptions,
} from '@snowkey/core/adapter';
import type { Namespace } from 'etcd3';

/** The key prefix leases are kept under unless `prefix` says otherwise. */
export const DEFAULT_ETCD_PREFIX = 'snowkey/leases/';

/** Options of {@link leaseEtcdNodeId}: the etcd client, the key prefix, and every node-id lease option. */
export interface EtcdLeaseOptions extends NodeLeaseOptions {
  /** An `Etcd3` client of the `etcd3` package (or a namespace of one), on every member of the cluster (`hosts`). */
  client: Namespace;
  /** The key prefix of the leases. Default `snowkey/leases/`. */
  prefix?: string;
  /** The etcd lease's TTL, in whole seconds as etcd counts them (etcd may raise it). Default 30 000 ms. */
  ttlMs?: number;
  /** How long one call to etcd may take before it is abandoned. Default `renewEveryMs`. */
  callTimeoutMs?: number;
}

/** {@link EtcdLeaseOptions} validated, with defaults filled in. */
export interface ResolvedEtcdLeaseOptions extends ResolvedNodeLeaseOptions {
  readonly client: Namespace;
  readonly prefix: string;
  readonly ttlSeconds: number;
  readonly callTimeoutMs: number;
}

/** Validates every option eagerly, naming the bad one, what it got and what it expected. */
export function resolveEtcdLeaseOptions(options: EtcdLeaseOptions): ResolvedEtcdLeaseOptions {
  if (options === null || typeof options !== 'object') {
    throw new InvalidArgumentError('options', 'an object with client and layout', options);
  }
  const client = assertEtcdClient(options.client);
  const ttlMs = options.ttlMs ?? 30_000;
  if (typeof ttlMs !== 'number' || !Number.isSafeInteger(ttlMs) || ttlMs < 1000 || ttlMs % 1000 !== 0) {
    throw new InvalidArgumentError(
      'ttlMs',
      'a whole number of seconds in ms, at least 1000 (etcd leases count whole seconds)',
      ttlMs,
    );
  }
  const common = resolveNodeLeaseOptions({ ...options, ttlMs });
  const prefix = options.prefix ?? DEFAULT_ETCD_PREFIX;
  if (typeof prefix !== 'string' || prefix.length === 0 || prefix.length > 200) {
    throw new InvalidArgumentError('prefix', 'a non-empty key prefix of at most 200 characters', prefix);
  }
  return {
    ...common,
    client,
    prefix,
    ttlSeconds: ttlMs / 1000,
    callTimeoutMs: positiveMs('callTimeoutMs', options.callTimeoutMs, common.renewEveryMs),
  };
}

/** The client check shared by the lease and the inspector. */
export function assertEtcdClient(client: unknown): Namespace {
  const c = client as Partial<Record<'lease' | 'if' | 'getAll' | 'get' | 'put', unknown>> | null | undefined;
  if (
    c === null ||
    typeof c !== 'object' ||
    typeof c.lease !== 'function' ||
    typeof c.if !== 'function' ||
    typeof c.getAll !== 'function'
  ) {
    throw new InvalidArgumentError('client', 'an Etcd3 client of the etcd3 package', client);
  }
  return client as Namespace;
}
