import { WorkerIdLeaseError } from '@snowkey/core';
import type { LeaseRelease, LeaseRenewal, LeaseStore } from '@snowkey/core/adapter';
import { EtcdLeaseInvalidError, type IKeyValue, type Lease } from 'etcd3';
import { decodeMark, encodeMark, type LeaseMark, type NodeKeys, nodeKeys } from './etcd-lease-keys.js';
import type { ResolvedEtcdLeaseOptions } from './etcd-lease-options.js';

/** How often a renewal re-reads the mark when another write got there first. */
const CAS_ROUNDS = 3;
/** How many members a renewal's keep-alive tries within one `callTimeoutMs`. */
const KEEPALIVE_ATTEMPTS = 5;

/** The mark as last written or read, with its mod revision: every write is conditional on it. */
export interface KnownMark {
  readonly rev: string;
  readonly mark: LeaseMark;
}

/**
 * One held node id on etcd, as a {@link LeaseStore}: a renewal keeps the etcd lease alive (the
 * holder key is bound to it) and then raises the mark, conditional on the holder key still holding
 * our token and on the mark's revision, so values only grow even when a renewal the caller gave up
 * on lands late.
 */
export class EtcdLeaseStore implements LeaseStore {
  readonly where: string;
  readonly #o: ResolvedEtcdLeaseOptions;
  readonly #lease: Lease;
  readonly #keys: NodeKeys;
  #known: KnownMark;

  constructor(o: ResolvedEtcdLeaseOptions, lease: Lease, nodeId: number, known: KnownMark) {
    this.#o = o;
    this.#lease = lease;
    this.#keys = nodeKeys(o.prefix, nodeId);
    this.#known = known;
    this.where = `etcd ${o.prefix}`;
  }

  async renew(r: LeaseRenewal): Promise<boolean> {
    if (!(await this.#keepAlive())) return false;
    const { client } = this.#o;
    for (let round = 0; round < CAS_ROUNDS; round++) {
      const { rev, mark: was } = this.#known;
      const mark: LeaseMark = {
        holder: r.holder,
        ceiling: Math.max(was.ceiling, r.ceiling),
        highWater: Math.max(was.highWater, r.highWater),
        expiresAt: Math.max(was.expiresAt, r.expiresAt),
        renewedAt: r.now,
      };
      const res = await client
        .if(this.#keys.holder, 'Value', '==', r.holder)
        .and(this.#keys.mark, 'Mod', '==', rev)
        .then(client.put(this.#keys.mark).value(encodeMark(mark)))
        .else(client.get(this.#keys.holder), client.get(this.#keys.mark))
        .options(this.#call())
        .commit();
      if (res.succeeded) {
        this.#known = { rev: res.header.revision, mark };
        return true;
      }
      const [holderKv] = res.responses[0]?.response_range.kvs ?? [];
      if (!holderKv || holderKv.value.toString() !== r.holder) return false;
      const [markKv] = res.responses[1]?.response_range.kvs ?? [];
      this.#known = markKv ? known(this.#keys.mark, markKv) : { rev: '0', mark: was };
    }
    throw new WorkerIdLeaseError(
      `the lease mark ${this.#keys.mark} changed ${CAS_ROUNDS} times during one renewal; is another program writing it?`,
      this.where,
      'mark kept changing',
    );
  }

  async release(r: LeaseRelease): Promise<void> {
    const { client } = this.#o;
    const was = this.#known.mark;
    const mark: LeaseMark = {
      holder: null,
      ceiling: was.ceiling,
      highWater: Math.max(was.highWater, r.highWater),
      expiresAt: 0,
      renewedAt: r.now,
    };
    await client
      .if(this.#keys.holder, 'Value', '==', r.holder)
      .then(client.delete().key(this.#keys.holder), client.put(this.#keys.mark).value(encodeMark(mark)))
      .options(this.#call())
      .commit();
    // No key is bound to the etcd lease any more; revoking it only spares etcd the wait for its TTL.
    await this.#lease.revoke(this.#call()).catch(() => undefined);
  }

  /** False when etcd answered that the lease is gone: its holder key went with it, so the id may be taken. */
  async #keepAlive(): Promise<boolean> {
    const call = this.#call();
    for (let attempt = 1; ; attempt++) {
      try {
        await this.#lease.keepaliveOnce(call);
        return true;
      } catch (err) {
        if (isLeaseInvalid(err)) return false;
        // etcd3 opens each keep-alive stream to a member picked at random, a dead member too (its
        // circuit breaker guards unary calls only): try another while time remains.
        if (attempt >= KEEPALIVE_ATTEMPTS || Date.now() >= call.deadline) throw err;
      }
    }
  }

  #call(): { deadline: number } {
    return { deadline: Date.now() + this.#o.callTimeoutMs };
  }
}

/** A mark's key-value as {@link KnownMark}. */
export function known(key: string, kv: IKeyValue): KnownMark {
  return { rev: kv.mod_revision, mark: decodeMark(key, kv.value.toString()) };
}

function isLeaseInvalid(err: unknown): boolean {
  return err instanceof EtcdLeaseInvalidError || (err as Error | undefined)?.name === 'EtcdLeaseInvalidError';
}
