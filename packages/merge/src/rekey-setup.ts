import { composeId, InvalidArgumentError, type Layout } from '@snowkey/core';
import { type CopyOrder, copyOrder } from './copy-order.js';
import type { MergeDatabase } from './database.js';
import type { Interruptions, ProgressEvent } from './progress-ledger.js';
import { readSchema } from './read-schema.js';
import { type ColumnInfo, column, type ForeignKeyInfo, rowKey, type TableInfo } from './schema.js';

/** Options of {@link runRekey} and {@link verifyRekey}. */
export interface RekeyOptions extends Interruptions {
  /** The shard on AUTO_INCREMENT / serial keys. It is only read. */
  readonly source: MergeDatabase;
  /** Where the re-keyed copy goes: the same tables, empty before the first run, keys BIGINT. */
  readonly target: MergeDatabase;
  /** The layout the game's generator will use from now on. */
  readonly layout: Layout;
  /** The server's node fields, e.g. `{ serverId: 3 }`: in every new id. */
  readonly node: Readonly<Record<string, number>>;
  /** Tables to leave out. */
  readonly exclude?: readonly string[];
  /** Rows per chunk (one transaction each). Default 100000. */
  readonly batchSize?: number;
  readonly onProgress?: (p: ProgressEvent) => void;
  /** Ms since 1970, read once on the first run. Default `Date.now`. */
  readonly clock?: () => number;
}

/** A column whose values are keys of a re-keyed table. */
export interface KeyColumn {
  readonly column: string;
  readonly refTable: string;
}

/** One table as the rekey handles it. */
export interface RekeyTable {
  readonly table: TableInfo;
  /** Its place in the copy order: its staging table is `snowkey_rekey_stage_<number>`. */
  readonly number: number;
  readonly key: readonly string[];
  readonly columns: readonly string[];
  /** The columns as the target has them (the staging table's types). */
  readonly staged: readonly ColumnInfo[];
  /** The source's key columns. */
  readonly sourceKeys: readonly ColumnInfo[];
  /** Source columns whose values must be integers: the re-keyed key and references to re-keyed keys. */
  readonly integerChecks: readonly ColumnInfo[];
  /** The single integer key column that gets new ids; null for tables keyed otherwise. */
  readonly rekeyed: string | null;
  /** Foreign-key columns written with the row, translated through the mapping. */
  readonly refs: readonly KeyColumn[];
  /** Foreign keys written in the second pass. */
  readonly deferred: readonly ForeignKeyInfo[];
  readonly deferredRefs: readonly KeyColumn[];
  readonly overridingSystemValue: boolean;
}

/** The schema-level facts of a rekey. */
export interface RekeySetup {
  readonly order: readonly string[];
  readonly tables: ReadonlyMap<string, RekeyTable>;
  readonly problems: readonly string[];
  readonly fingerprint: string;
  readonly copy: CopyOrder;
}

/** Reads both schemas and works out the rekey, and every reason it cannot run. */
export async function setUpRekey(options: RekeyOptions): Promise<RekeySetup> {
  if (options.layout === null || typeof options.layout !== 'object') {
    throw new InvalidArgumentError(
      'layout',
      'a Layout (layouts.gameServer, defineLayout(...))',
      options.layout,
    );
  }
  if (options.node === null || typeof options.node !== 'object') {
    throw new InvalidArgumentError('node', "the server's node fields, e.g. { serverId: 3 }", options.node);
  }
  // composeId checks every node field against the layout.
  composeId({ timestamp: options.layout.epoch, sequence: 0, ...options.node }, options.layout);
  for (const f of options.layout.nodeFields) {
    if (options.node[f.name] === undefined) {
      throw new InvalidArgumentError(`node.${f.name}`, `an integer in 0..${f.max}`, undefined);
    }
  }
  const source = await readSchema(options.source);
  const target = await readSchema(options.target);
  const exclude = new Set(options.exclude ?? []);
  const tables = source.tables.filter((t) => !exclude.has(t.name));
  const problems: string[] = [];
  const copy = copyOrder(tables);
  problems.push(...copy.cycles);
  // A table's single integer (or exact numeric) primary key gets new ids, unless it is itself a
  // reference to another table's key (a 1:1 table), which is translated instead.
  const rekeyed = new Map<string, string>();
  const numeric = (c: ColumnInfo) => c.integer || /^(numeric|decimal)/.test(c.type);
  for (const t of tables) {
    const pk = t.primaryKey[0];
    if (t.primaryKey.length !== 1 || !numeric(column(t, pk!))) continue;
    if (t.foreignKeys.some((fk) => fk.columns.length === 1 && fk.columns[0] === pk && fk.refTable !== t.name))
      continue;
    rekeyed.set(t.name, pk!);
  }
  // Columns that hold keys of a re-keyed table, directly or through other keys (trades.account_id
  // references inventory.account_id, which references accounts.id), and that table.
  const keyOf = new Map([...rekeyed].map(([table, c]) => [`${table}.${c}`, table]));
  for (let changed = true; changed; ) {
    changed = false;
    for (const t of tables) {
      for (const fk of t.foreignKeys) {
        fk.columns.forEach((c, i) => {
          const root = keyOf.get(`${fk.refTable}.${fk.refColumns[i]}`);
          if (root !== undefined && !keyOf.has(`${t.name}.${c}`)) {
            keyOf.set(`${t.name}.${c}`, root);
            changed = true;
          }
        });
      }
    }
  }
  const out = new Map<string, RekeyTable>();
  for (const t of tables) {
    const tt = target.tables.find((x) => x.name === t.name);
    if (!tt) {
      problems.push(`table ${t.name} is not in the target (create the tables there first)`);
      continue;
    }
    const key = rowKey(t);
    if (!key) {
      problems.push(
        `table ${t.name} has no primary key and no NOT NULL unique key, so its rows cannot be told apart (add a key, or exclude it)`,
      );
      continue;
    }
    const columns = t.columns.filter((c) => !c.generated).map((c) => c.name);
    const missing = columns.filter((c) => !tt.columns.some((x) => x.name === c));
    if (missing.length > 0) problems.push(`${t.name}: the target lacks columns ${missing.join(', ')}`);
    const fks = t.foreignKeys.filter((fk) => tables.some((x) => x.name === fk.refTable));
    const deferred = copy.deferred.filter((fk) => fk.table === t.name);
    const keyColumns = (list: readonly ForeignKeyInfo[]) =>
      list.flatMap((fk) =>
        fk.columns
          .filter((c) => keyOf.has(`${t.name}.${c}`) && c !== rekeyed.get(t.name))
          .map((c) => ({ column: c, refTable: keyOf.get(`${t.name}.${c}`)! })),
      );
    const refs = keyColumns(fks.filter((fk) => !deferred.includes(fk)));
    const deferredRefs = keyColumns(deferred);
    const own = rekeyed.get(t.name) ?? null;
    for (const c of [
      ...(own ? [own] : []),
      ...refs.map((r) => r.column),
      ...deferredRefs.map((r) => r.column),
    ]) {
      const tc = tt.columns.find((x) => x.name === c);
      if (tc && !tc.bigint) {
        problems.push(
          `${t.name}.${c} is ${tc.type} in the target: snowkey ids need a 64-bit integer (BIGINT)`,
        );
      }
    }
    const keyish = new Set([
      ...(own ? [own] : []),
      ...refs.map((r) => r.column),
      ...deferredRefs.map((r) => r.column),
    ]);
    out.set(t.name, {
      table: t,
      number: 0,
      key,
      columns,
      staged: columns.map((c) => tt.columns.find((x) => x.name === c) ?? column(t, c)),
      sourceKeys: key.map((k) => column(t, k)),
      integerChecks: t.columns.filter((c) => keyish.has(c.name)),
      rekeyed: own,
      refs,
      deferred,
      deferredRefs,
      overridingSystemValue: tt.columns.some((c) => c.identityAlways),
    });
  }
  const fingerprint = JSON.stringify({
    source: `${source.dialect}:${options.source.name}`,
    layout: options.layout.name,
    node: Object.fromEntries(Object.entries(options.node).sort()),
    exclude: [...exclude].sort(),
  });
  const order = copy.order.filter((n) => out.has(n));
  order.forEach((n, i) => {
    out.set(n, { ...out.get(n)!, number: i + 1 });
  });
  return { order, tables: out, problems, fingerprint, copy };
}
