import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decode } from '@snowkey/core';
import { type EtcdMember, useEtcdCluster } from '@snowkey/test-harness/etcd-cluster';
import { type JsonChild, startJsonChild } from '@snowkey/test-harness/json-child';
import { afterAll, describe, expect, test } from 'vitest';
import { chaosLayout } from './fixtures/chaos-layout.js';

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'chaos-child.ts');
const PROCESSES = 6;
/** 8 node ids for 6 processes: a killed holder's id is taken again once its etcd lease expires. */
const NODE_BITS = 3;
const KILLS = 12;
const TTL_MS = 2000;

const etcd = useEtcdCluster();

describe.skipIf(etcd.skip)('etcd leases under kill -9 churn and a leader killed mid-run', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'snowkey-etcd-chaos-'));
  const children: JsonChild[] = [];
  afterAll(async () => {
    for (const c of children) {
      if (c.process.exitCode === null && c.process.signalCode === null) c.process.kill('SIGKILL');
      await c.exited;
    }
    rmSync(outDir, { recursive: true, force: true });
  });

  test(`GIVEN ${PROCESSES} processes issuing ids, ${KILLS} of them killed with SIGKILL and replaced, and the etcd leader killed halfway THEN no id repeats AND every id decodes to the node id its process leased`, async () => {
    const cluster = etcd.cluster;
    const prefix = `chaos/${randomUUID()}/`;
    const start = () => {
      const child = startJsonChild(CHILD, {
        ETCD_HOSTS: cluster.hosts.join(','),
        ETCD_PREFIX: prefix,
        OUT_DIR: outDir,
        NODE_BITS,
        TTL_MS,
      });
      children.push(child);
      return child;
    };
    /** How many ids `child` has written so far. */
    const written = (child: JsonChild) =>
      child.events.reduce((n, e) => (e.event === 'wrote' ? Math.max(n, Number(e.total)) : n), 0);
    /** Resolves once `child` has leased and written ids after `after` of them. */
    const writing = (child: JsonChild, after = 0) =>
      child.waitFor((e) => e.event === 'wrote' && Number(e.total) > after);

    const termBefore = await cluster.term();
    let live = Array.from({ length: PROCESSES }, start);
    await Promise.all(live.map((c) => writing(c)));

    let killedLeader: EtcdMember | undefined;
    const leaders = [(await cluster.leader()).name];
    for (let k = 0; k < KILLS; k++) {
      // The oldest process goes, once it has written more ids since the previous kill.
      const victim = live[0]!;
      await writing(victim, written(victim));
      victim.process.kill('SIGKILL');
      await victim.exited;
      const replacement = start();
      live = [...live.slice(1), replacement];
      if (k === KILLS / 2) {
        killedLeader = await cluster.leader();
        await cluster.kill(killedLeader);
        let next = killedLeader;
        while (next === killedLeader) next = await cluster.leader().catch(() => killedLeader!);
        leaders.push(next.name);
      }
      await writing(replacement);
    }
    // Every live process still issues after the leader change.
    await Promise.all(live.map((c) => writing(c, written(c))));
    for (const c of live) c.process.kill('SIGKILL');
    await Promise.all(live.map((c) => c.exited));
    if (killedLeader) await cluster.restart(killedLeader);
    const termAfter = await cluster.term();

    // The oracle: every id each process wrote, read back from its file and decoded.
    const layout = chaosLayout(NODE_BITS);
    const files = readdirSync(outDir).filter((f) => f.endsWith('.ids'));
    const perNode = new Map<number, number>();
    let total = 0;
    let wrongNode = 0;
    const all: BigUint64Array[] = [];
    for (const file of files) {
      const nodeId = Number(/-n(\d+)\.ids$/.exec(file)![1]);
      perNode.set(nodeId, (perNode.get(nodeId) ?? 0) + 1);
      const bytes = readFileSync(join(outDir, file));
      // A process killed mid-write may leave a partial last record.
      const ids = new BigUint64Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.length / 8));
      for (const id of ids) if (decode(id, { layout }).workerId !== nodeId) wrongNode++;
      total += ids.length;
      all.push(ids);
    }
    const sorted = new BigUint64Array(total);
    let at = 0;
    for (const ids of all) {
      sorted.set(ids, at);
      at += ids.length;
    }
    sorted.sort();
    let duplicates = 0;
    for (let i = 1; i < sorted.length; i++) if (sorted[i] === sorted[i - 1]) duplicates++;
    const reused = [...perNode.values()].filter((holders) => holders > 1).length;

    const lost = children.flatMap((c) => c.events.filter((e) => e.event === 'lost'));
    const figures = {
      processes: children.length,
      leases: files.length,
      leasesLost: lost.length,
      ids: total,
      kills: KILLS + PROCESSES,
      leaderKilled: killedLeader?.name,
      leaders,
      electionsByTerm: termAfter - termBefore,
      nodeIdsTakenAgain: reused,
      duplicates,
      wrongNode,
    };
    console.log(`etcd chaos: ${JSON.stringify(figures)}`);
    expect(files).toHaveLength(children.length + lost.length);
    expect(reused).toBeGreaterThan(0);
    expect(termAfter).toBeGreaterThan(termBefore);
    expect(duplicates).toBe(0);
    expect(wrongNode).toBe(0);
    // About 25 s alone; the ceiling leaves room for a machine busy with the rest of the suite.
  }, 120_000);
});
