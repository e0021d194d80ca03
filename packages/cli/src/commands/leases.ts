import { monotonicClock } from '@snowkey/core';
import type { LeaseRecord } from '@snowkey/core/adapter';
import { Command } from 'commander';
import { CommandFailed } from '../command-failed.js';
import { errorCode } from '../exit-status.js';
import { integerFlag } from '../flag-values.js';
import type { CliIo } from '../io.js';
import { addLayoutFlags, type LayoutFlags, resolveLayout } from '../layout-flags.js';
import { formatFree, formatLease, formatLeases, leaseJson } from '../lease-report.js';
import { LEASE_STORES, type OpenedLeaseStore, openLeaseStore } from '../lease-stores.js';

interface StoreFlags {
  url?: string;
  table?: string;
  json?: boolean;
}

function addStoreFlags(command: Command): Command {
  const schemes = LEASE_STORES.flatMap((s) => s.schemes).join(', ');
  return command
    .option('--url <url>', `the lease store: ${schemes} (default: DATABASE_URL)`)
    .option('--table <name>', 'the lease table (default snowkey_node_leases)')
    .option('--json', 'print JSON');
}

/** `snowkey leases list|show|free`: who holds which node id, and a safe way to free one. */
export function leasesCommand(io: CliIo): Command {
  const clock = io.clock ?? monotonicClock;
  const now = () => Math.floor(clock());
  const withStore = async <T>(
    flags: StoreFlags,
    body: (store: OpenedLeaseStore) => Promise<T>,
  ): Promise<T> => {
    const store = await openLeaseStore(flags.url ?? io.env.DATABASE_URL, { table: flags.table, clock });
    try {
      return await body(store);
    } finally {
      await store.close();
    }
  };
  const print = (flags: StoreFlags, json: unknown, text: string) =>
    io.stdout(flags.json ? `${JSON.stringify(json, null, 2)}\n` : text);

  const leases = new Command('leases').description('inspect and repair node-id leases');

  const list = addLayoutFlags(addStoreFlags(new Command('list')), true)
    .description(
      'every node id ever leased: holder, host/pid, acquired, expires, high-water mark; and the free ids',
    )
    .action(async (flags: StoreFlags & LayoutFlags) => {
      const layout = resolveLayout(flags);
      await withStore(flags, async ({ inspector }) => {
        const records = await inspector.list();
        const total = 2 ** layout.nodeBitsTotal;
        const taken = records.filter(
          (r) => r.nodeId < total && (r.status === 'held' || r.status === 'evicted'),
        );
        const range = { total, free: total - taken.length, layout: layout.name };
        print(
          flags,
          { store: inspector.where, nodeIds: range, leases: records.map(leaseJson) },
          formatLeases(records, inspector.where, now(), range),
        );
      });
    });

  const show = addStoreFlags(new Command('show'))
    .description('one node id in full')
    .argument('<nodeId>', 'the node id (all node bits packed)')
    .action(async (raw: string, flags: StoreFlags) => {
      const nodeId = integerFlag('<nodeId>', raw, 'a node id: a non-negative integer');
      await withStore(flags, async ({ inspector }) => {
        const record: LeaseRecord | undefined = (await inspector.list()).find((r) => r.nodeId === nodeId);
        if (!record) {
          print(flags, { nodeId, status: 'never-used' }, `node id ${nodeId} was never leased: it is free.\n`);
          return;
        }
        print(flags, leaseJson(record), formatLease(record, now()));
      });
    });

  const free = addStoreFlags(new Command('free'))
    .description(
      'free an expired node id now; refuses a live lease, whose holder may still be running, unless --force (see the README for when that is safe)',
    )
    .argument('<nodeId>', 'the node id (all node bits packed)')
    .option(
      '--force',
      'evict a live holder: it stops issuing ids at its next renewal, and the id frees itself at its ceiling',
    )
    .action(async (raw: string, flags: StoreFlags & { force?: boolean }) => {
      const nodeId = integerFlag('<nodeId>', raw, 'a node id: a non-negative integer');
      await withStore(flags, async ({ inspector }) => {
        let result: Awaited<ReturnType<typeof inspector.free>>;
        try {
          result = await inspector.free(nodeId, { force: flags.force === true });
        } catch (err) {
          if (errorCode(err) === 'SNOWKEY_LEASE_FREE_REFUSED') {
            io.stderr(`refused: ${(err as Error).message}\n`);
            throw new CommandFailed(1);
          }
          throw err;
        }
        print(
          flags,
          {
            nodeId,
            outcome: result.outcome,
            before: result.before && leaseJson(result.before),
            nextStartsAfter:
              result.nextStartsAfter === undefined ? null : new Date(result.nextStartsAfter).toISOString(),
          },
          formatFree(nodeId, result),
        );
      });
    });

  return leases.addCommand(list).addCommand(show).addCommand(free);
}
