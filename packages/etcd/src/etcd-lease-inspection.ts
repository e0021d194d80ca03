import {
  type Clock,
  InvalidArgumentError,
  LeaseFreeRefusedError,
  monotonicClock,
  WorkerIdLeaseError,
} from '@snowkey/core';
import {
  type FreeResult,
  holderToken,
  type LeaseInspector,
  type LeaseRecord,
  parseHolderToken,
  readClock,
} from '@snowkey/core/adapter';
import type { IKeyValue, Namespace } from 'etcd3';
import {
  decodeMark,
  encodeMark,
  type LeaseMark,
  nodeKeys,
  parseNodeKey,
  startAfterOf,
} from './etcd-lease-keys.js';
import { assertEtcdClient, DEFAULT_ETCD_PREFIX } from './etcd-lease-options.js';

/** The holder label an eviction writes: the id stays taken until the evicted holder's ceiling. */
const EVICTED = 'evicted-by-operator';

/** One node id's keys as read, with the revisions its writes are conditional on. */
interface NodeKvs {
  holder?: IKeyValue;
  mark?: IKeyValue;
}

/**
 * A `LeaseInspector` (for `snowkey leases list|show|free`) over the leases `leaseEtcdNodeId` keeps
 * under `prefix`; `free` never lets two ids collide, and evicts a held id only with `force`.
 *
 * @example
 * const inspector = inspectEtcdLeases(client);
 * for (const lease of await inspector.list()) console.log(lease.nodeId, lease.status, lease.label);
 * await inspector.free(7); // refuses while node id 7's holder key is alive
 */
export function inspectEtcdLeases(
  client: Namespace,
  options: { prefix?: string; clock?: Clock } = {},
): LeaseInspector {
  // free(): an expired id is free to take already (its next holder starts after its ceiling), so
  // free records that ceiling as its high-water mark; it refuses while the ceiling is ahead of
  // this clock unless `force`. `force` on a held id evicts it: in one revision-checked transaction
  // the holder key passes to an operator's etcd lease ending at the holder's ceiling, so the
  // holder's next renewal finds the id gone, and the id frees itself once that ceiling passes.
  assertEtcdClient(client);
  const prefix = options.prefix ?? DEFAULT_ETCD_PREFIX;
  const clock = options.clock ?? monotonicClock;
  const now = () => Math.floor(readClock(clock));

  const read = async (): Promise<Map<number, NodeKvs>> => {
    const res = await client
      .getAll()
      .prefix(prefix)
      .exec()
      .catch((err: unknown) => {
        throw new WorkerIdLeaseError(
          `could not read the leases under ${prefix} (etcd): ${String(err)}`,
          `etcd ${prefix}`,
          String(err),
          { cause: err },
        );
      });
    const nodes = new Map<number, NodeKvs>();
    for (const kv of res.kvs) {
      const parsed = parseNodeKey(prefix, kv.key.toString());
      if (!parsed) continue;
      const node = nodes.get(parsed.nodeId) ?? {};
      node[parsed.kind] = kv;
      nodes.set(parsed.nodeId, node);
    }
    return nodes;
  };
  const record = (nodeId: number, kvs: NodeKvs): LeaseRecord | undefined => {
    if (!kvs.mark) return undefined;
    const mark = decodeMark(nodeKeys(prefix, nodeId).mark, kvs.mark.value.toString());
    const parts = mark.holder === null ? undefined : parseHolderToken(mark.holder);
    const status =
      mark.holder === null
        ? 'released'
        : parts?.label === EVICTED && kvs.holder
          ? 'evicted'
          : kvs.holder
            ? 'held'
            : 'expired';
    return {
      nodeId,
      status,
      holder: mark.holder,
      label: parts?.label ?? null,
      acquiredAt: parts?.acquiredAt ?? null,
      renewedAt: mark.renewedAt,
      expiresAt: mark.expiresAt,
      ceiling: mark.ceiling,
      highWater: mark.highWater,
      version: Number(kvs.mark.version),
    };
  };

  return {
    where: `etcd ${prefix}`,
    async list() {
      const nodes = await read();
      return [...nodes.entries()]
        .sort(([a], [b]) => a - b)
        .flatMap(([nodeId, kvs]) => record(nodeId, kvs) ?? []);
    },
    async free(nodeId, { force = false } = {}): Promise<FreeResult> {
      if (!Number.isSafeInteger(nodeId) || nodeId < 0) {
        throw new InvalidArgumentError('nodeId', 'a node id: a non-negative integer', nodeId);
      }
      const at = now();
      const kvs = (await read()).get(nodeId) ?? {};
      const before = record(nodeId, kvs);
      if (!before || !kvs.mark) return { outcome: 'never-used', before, nextStartsAfter: undefined };
      const was = decodeMark(nodeKeys(prefix, nodeId).mark, kvs.mark.value.toString());
      if (was.holder === null) return { outcome: 'already-free', before, nextStartsAfter: was.highWater };
      const startsAfter = startAfterOf(was);
      const keys = nodeKeys(prefix, nodeId);
      if (!kvs.holder) {
        if (before.ceiling > at && !force) throw refusal(before, at);
        const freed: LeaseMark = {
          ...was,
          holder: null,
          highWater: startsAfter,
          expiresAt: 0,
          renewedAt: at,
        };
        const res = await client
          .if(keys.holder, 'Create', '==', 0)
          .and(keys.mark, 'Mod', '==', kvs.mark.mod_revision)
          .then(client.put(keys.mark).value(encodeMark(freed)))
          .commit();
        if (!res.succeeded) throw changed(nodeId, prefix);
        return { outcome: 'freed', before, nextStartsAfter: startsAfter };
      }
      if (!force || before.status === 'evicted') throw refusal(before, at);
      const evicted = holderToken(EVICTED, at);
      const ttlSeconds = Math.max(1, Math.ceil((was.ceiling - at) / 1000));
      const operatorLease = client.lease(ttlSeconds, { autoKeepAlive: false });
      const leaseId = await operatorLease.grant();
      const res = await client
        .if(keys.holder, 'Mod', '==', kvs.holder.mod_revision)
        .and(keys.mark, 'Mod', '==', kvs.mark.mod_revision)
        .then(
          client.put(keys.holder).value(evicted).lease(leaseId),
          client.put(keys.mark).value(encodeMark({ ...was, holder: evicted, renewedAt: at })),
        )
        .commit();
      if (!res.succeeded) {
        await operatorLease.revoke().catch(() => undefined);
        throw changed(nodeId, prefix);
      }
      operatorLease.release();
      // The holder's etcd lease holds no key any more; revoking it makes its next renewal fail at once.
      await client.leaseClient.leaseRevoke({ ID: kvs.holder.lease }).catch(() => undefined);
      return { outcome: 'evicted', before, nextStartsAfter: startsAfter };
    },
  };
}

function changed(nodeId: number, prefix: string): LeaseFreeRefusedError {
  return new LeaseFreeRefusedError(
    `node id ${nodeId} changed under ${prefix} while it was being freed (its holder renewed it, or another process took it); nothing was written: look again`,
    nodeId,
    'changed',
  );
}

function refusal(r: LeaseRecord, at: number): LeaseFreeRefusedError {
  const iso = (ms: number) => new Date(ms).toISOString();
  if (r.status === 'evicted') {
    return new LeaseFreeRefusedError(
      `node id ${r.nodeId} was evicted; it frees itself at its ceiling ${iso(r.ceiling)} (in ${r.ceiling - at} ms), when its next holder can issue ids at once`,
      r.nodeId,
      'ceiling-ahead',
    );
  }
  if (r.status === 'held') {
    return new LeaseFreeRefusedError(
      `node id ${r.nodeId} is held by ${r.label ?? r.holder}: its etcd lease is alive, so its holder may be running (its fence stops it at ${iso(r.expiresAt)} unless it renews). Stop it (it releases the id on SIGTERM), wait for its etcd lease to expire, or force: its holder then stops issuing at its next renewal, and the id frees itself at its ceiling ${iso(r.ceiling)}`,
      r.nodeId,
      'held',
    );
  }
  return new LeaseFreeRefusedError(
    `node id ${r.nodeId} expired, but its ceiling ${iso(r.ceiling)} is ${r.ceiling - at} ms ahead of this clock (the holder's clock ran ahead): a holder taking it now could issue nothing until then. Wait, or force`,
    r.nodeId,
    'ceiling-ahead',
  );
}
