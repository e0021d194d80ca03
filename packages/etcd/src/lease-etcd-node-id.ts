import { WorkerIdLeaseError } from '@snowkey/core';
import { holderToken, type LeaseGrant, NodeLease, readClock } from '@snowkey/core/adapter';
import type { IKeyValue, ITxnResponse } from 'etcd3';
import { encodeMark, type LeaseMark, nodeKeys, parseNodeKey, startAfterOf } from './etcd-lease-keys.js';
import {
  type EtcdLeaseOptions,
  type ResolvedEtcdLeaseOptions,
  resolveEtcdLeaseOptions,
} from './etcd-lease-options.js';
import { EtcdLeaseStore, type KnownMark, known } from './etcd-lease-store.js';

/** How many times the keys are re-read when every candidate was taken by a concurrent claimant. */
const CLAIM_ROUNDS = 3;

/**
 * Leases a node id for this process from etcd, so no two processes sharing the etcd cluster, in
 * any region or database, share one.
 *
 * @example
 * import { Etcd3 } from 'etcd3';
 * import { Snowflake, layouts } from '@snowkey/core';
 * import { leaseEtcdNodeId } from '@snowkey/etcd';
 *
 * const client = new Etcd3({ hosts: ['http://10.0.0.1:2379', 'http://10.0.0.2:2379', 'http://10.0.0.3:2379'] });
 * const lease = await leaseEtcdNodeId({ client, layout: layouts.default, releaseOnSignals: true });
 * const gen = new Snowflake({ layout: layouts.default, lease });
 * gen.nextId(); // unique across every process leasing from this etcd cluster
 */
export async function leaseEtcdNodeId(options: EtcdLeaseOptions): Promise<NodeLease> {
  // The holder key is bound to an etcd lease with a TTL; the id is taken by a revision-checked
  // transaction, so two claimants never both win; each node id's high-water mark and ceiling outlive
  // every holder, so the next starts after the last timestamp its predecessor could have used. The
  // generator stops before the etcd lease can expire (expiryMarginMs before ttlMs since the last
  // renewal was sent), so a process cut off from etcd stops before another can take its id.
  const o = resolveEtcdLeaseOptions(options);
  const now = () => Math.floor(readClock(o.clock));
  const acquiredAt = now();
  const holder = holderToken(o.holderLabel, acquiredAt);
  // Read before the grant is sent: etcd counts the TTL from a later moment, so the lease's fence
  // (ttlMs from here) ends before etcd's lease can.
  const grantedFrom = now();
  const etcdLease = o.client.lease(o.ttlSeconds, {
    autoKeepAlive: false,
    deadline: Date.now() + o.callTimeoutMs,
  });
  try {
    const leaseId = await etcdLease.grant().catch((err: unknown) => {
      throw etcdError(o, 'could not create an etcd lease', err);
    });
    const claimed = await claim(o, holder, leaseId, grantedFrom);
    const grant: LeaseGrant = { ...claimed.grant, acquiredAt, acquireMs: now() - acquiredAt };
    return new NodeLease(o, new EtcdLeaseStore(o, etcdLease, grant.nodeId, claimed.known), grant);
  } catch (err) {
    await etcdLease.revoke({ deadline: Date.now() + o.callTimeoutMs }).catch(() => undefined);
    throw err;
  }
}

/** What etcd holds of one node id: its holder key and its mark, with the mark's revision. */
interface NodeState {
  held: boolean;
  markRev: string;
  mark?: LeaseMark;
}

async function claim(
  o: ResolvedEtcdLeaseOptions,
  holder: string,
  leaseId: string,
  grantedFrom: number,
): Promise<{ grant: LeaseGrant; known: KnownMark }> {
  let live = 0;
  for (let round = 0; round < CLAIM_ROUNDS; round++) {
    const states = await readStates(o);
    for (const nodeId of candidates(states, o.maxNodeId, o.preferredNodeId)) {
      const won = await tryClaim(o, holder, leaseId, grantedFrom, nodeId, states.get(nodeId));
      if (won) return won;
    }
    live = [...states.values()].filter((s) => s.held).length;
  }
  throw new WorkerIdLeaseError(
    `every node id 0..${o.maxNodeId} of layout "${o.layout.name}" is held in etcd under ${o.prefix} (${live} live leases); release one, wait for one to expire, or use a layout with more node bits`,
    `etcd ${o.prefix}`,
    `all ${o.maxNodeId + 1} node ids held`,
  );
}

async function readStates(o: ResolvedEtcdLeaseOptions): Promise<Map<number, NodeState>> {
  let kvs: IKeyValue[];
  try {
    kvs = (
      await o.client
        .getAll()
        .prefix(o.prefix)
        .options({ deadline: Date.now() + o.callTimeoutMs })
        .exec()
    ).kvs;
  } catch (err) {
    throw etcdError(o, `could not read the leases under ${o.prefix}`, err);
  }
  const states = new Map<number, NodeState>();
  for (const kv of kvs) {
    const key = kv.key.toString();
    const parsed = parseNodeKey(o.prefix, key);
    if (!parsed || parsed.nodeId > o.maxNodeId) continue;
    const state = states.get(parsed.nodeId) ?? { held: false, markRev: '0' };
    if (parsed.kind === 'holder') state.held = true;
    else Object.assign(state, { markRev: kv.mod_revision, mark: known(key, kv).mark });
    states.set(parsed.nodeId, state);
  }
  return states;
}

/** Free node ids (no holder key), the preferred one first, then the others in order. */
function* candidates(
  states: ReadonlyMap<number, NodeState>,
  maxNodeId: number,
  preferred: number | undefined,
): Generator<number> {
  const free = (id: number) => !states.get(id)?.held;
  if (preferred !== undefined && free(preferred)) yield preferred;
  for (let id = 0; id <= maxNodeId; id++) if (id !== preferred && free(id)) yield id;
}

async function tryClaim(
  o: ResolvedEtcdLeaseOptions,
  holder: string,
  leaseId: string,
  grantedFrom: number,
  nodeId: number,
  state: NodeState | undefined,
): Promise<{ grant: LeaseGrant; known: KnownMark } | undefined> {
  const now = Math.floor(readClock(o.clock));
  const startAfter = startAfterOf(state?.mark);
  const expiresAt = grantedFrom + o.ttlMs;
  const ceiling = Math.max(now, startAfter) + o.ttlMs;
  const mark: LeaseMark = { holder, ceiling, highWater: startAfter, expiresAt, renewedAt: now };
  const keys = nodeKeys(o.prefix, nodeId);
  const { client } = o;
  let res: ITxnResponse;
  try {
    // The holder key must not exist and the mark must be the one read: a claimant that got there
    // first, or a late write of the previous holder, makes this one fail.
    res = await client
      .if(keys.holder, 'Create', '==', 0)
      .and(keys.mark, 'Mod', '==', state?.markRev ?? '0')
      .then(
        client.put(keys.holder).value(holder).lease(leaseId),
        client.put(keys.mark).value(encodeMark(mark)),
      )
      .options({ deadline: Date.now() + o.callTimeoutMs })
      .commit();
  } catch (err) {
    throw etcdError(o, `could not claim node id ${nodeId} under ${o.prefix}`, err);
  }
  if (!res.succeeded) return undefined;
  return {
    grant: { nodeId, holder, startAfter, expiresAt, ceiling },
    known: { rev: res.header.revision, mark },
  };
}

function etcdError(o: ResolvedEtcdLeaseOptions, what: string, err: unknown): WorkerIdLeaseError {
  return new WorkerIdLeaseError(`${what} (etcd): ${String(err)}`, `etcd ${o.prefix}`, String(err), {
    cause: err,
  });
}
