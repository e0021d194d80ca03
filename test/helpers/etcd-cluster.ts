import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Etcd3 } from 'etcd3';

/** Debian's etcd (`apt-get install -y etcd-server`; `.ci/run` installs it). */
export const ETCD = '/usr/bin/etcd';

/**
 * Why the etcd tests cannot run here, or undefined when they can. With `CI=true` a missing etcd is
 * a failure (the caller throws this reason), never a skip.
 */
export function etcdMissing(): string | undefined {
  return existsSync(ETCD) ? undefined : `${ETCD} not found (apt-get install -y etcd-server)`;
}

/** One member of a test cluster. */
export interface EtcdMember {
  readonly name: string;
  readonly clientUrl: string;
  process: ChildProcess | undefined;
  log: string;
}

/** A 3-member etcd cluster on loopback ports, in a temporary directory, for one test file. */
export interface EtcdCluster {
  readonly members: readonly EtcdMember[];
  /** Every member's client URL, as `Etcd3`'s `hosts` takes them. */
  readonly hosts: string[];
  /** A client on every member (closed by {@link EtcdCluster.stop}). */
  client(): Etcd3;
  /** The member that leads now, asked of the members that answer. */
  leader(): Promise<EtcdMember>;
  /** The raft term, which grows by one at every election. */
  term(): Promise<number>;
  kill(member: EtcdMember): Promise<void>;
  /** Starts a killed member again on its data directory, and waits until it answers. */
  restart(member: EtcdMember): Promise<void>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * Starts 3 members (election timeout 500 ms, so the minimum etcd lease TTL is 1 s), each with its
 * own client and peer port on 127.0.0.1, and waits until every member answers.
 */
export async function startEtcdCluster(): Promise<EtcdCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'snowkey-etcd-'));
  const ports = await Promise.all(Array.from({ length: 6 }, freePort));
  const specs = [0, 1, 2].map((i) => ({
    name: `m${i}`,
    clientUrl: `http://127.0.0.1:${ports[2 * i]}`,
    peerUrl: `http://127.0.0.1:${ports[2 * i + 1]}`,
  }));
  const initialCluster = specs.map((s) => `${s.name}=${s.peerUrl}`).join(',');
  const token = `snowkey-${process.pid}-${Date.now()}`;
  const members: EtcdMember[] = specs.map((s) => ({
    name: s.name,
    clientUrl: s.clientUrl,
    process: undefined,
    log: '',
  }));
  const clients: Etcd3[] = [];
  const launch = (i: number) => {
    const s = specs[i]!;
    const m = members[i]!;
    const child = spawn(
      ETCD,
      [
        `--name=${s.name}`,
        `--data-dir=${join(dir, s.name)}`,
        `--listen-client-urls=${s.clientUrl}`,
        `--advertise-client-urls=${s.clientUrl}`,
        `--listen-peer-urls=${s.peerUrl}`,
        `--initial-advertise-peer-urls=${s.peerUrl}`,
        `--initial-cluster=${initialCluster}`,
        '--initial-cluster-state=new',
        `--initial-cluster-token=${token}`,
        '--heartbeat-interval=50',
        '--election-timeout=500',
        '--logger=zap',
        '--log-level=warn',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      m.log = (m.log + chunk).slice(-20_000);
    });
    m.process = child;
  };
  const memberClient = (m: EtcdMember) => {
    const c = new Etcd3({ hosts: m.clientUrl });
    clients.push(c);
    return c;
  };
  const waitUntilServing = async (m: EtcdMember) => {
    const c = memberClient(m);
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        // A linearizable read answers only once the member has joined a cluster with a leader.
        await c.get('snowkey-ready-probe').options({ deadline: Date.now() + 1000 });
        return;
      } catch (err) {
        if (m.process?.exitCode !== null || Date.now() > deadline) {
          throw new Error(`etcd member ${m.name} did not come up: ${String(err)}\n${m.log}`);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  for (let i = 0; i < 3; i++) launch(i);
  await Promise.all(members.map(waitUntilServing));

  const status = async () => {
    for (const m of members) {
      if (!m.process || m.process.exitCode !== null || m.process.signalCode !== null) continue;
      try {
        return await memberClient(m).maintenance.status({ deadline: Date.now() + 1000 });
      } catch {
        // the next member may answer
      }
    }
    throw new Error('no etcd member answers');
  };
  const kill = async (m: EtcdMember) => {
    const p = m.process;
    if (!p || p.exitCode !== null || p.signalCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill('SIGKILL');
    await exited;
  };
  const idOf = new Map<string, EtcdMember>();
  for (const m of members) {
    const s = await memberClient(m).maintenance.status();
    idOf.set(s.header.member_id, m);
  }
  return {
    members,
    hosts: members.map((m) => m.clientUrl),
    client() {
      const c = new Etcd3({ hosts: members.map((m) => m.clientUrl) });
      clients.push(c);
      return c;
    },
    async leader() {
      const s = await status();
      const m = idOf.get(s.leader);
      if (!m) throw new Error(`unknown leader ${s.leader}`);
      return m;
    },
    async term() {
      return Number((await status()).raftTerm);
    },
    kill,
    async restart(m) {
      launch(members.indexOf(m));
      await waitUntilServing(m);
    },
    async stop() {
      for (const c of clients.splice(0)) c.close();
      await Promise.all(members.map(kill));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
