import { InvalidArgumentError } from '../errors.js';
import type { Layout } from '../layout.js';
import { DEFAULT_LEASE_TABLE } from '../lease/lease-table.js';
import { checkTableName } from '../own-table.js';
import { mysqlGenerator } from './mysql-generator.js';
import { postgresGenerator } from './postgres-generator.js';

/** The `holder` of the lease rows the database's generator holds; applications never take them. */
export const DATABASE_HOLDER = 'snowkey_next_id@database';

/** The default name of the table of the database's node ids and their last (unit, sequence). */
export const DEFAULT_SQL_NODES_TABLE = 'snowkey_sql_nodes';

/** What {@link sqlGeneratorScript} takes. */
export interface SqlGeneratorOptions {
  /** The application's layout: the database issues ids of the same layout. */
  readonly layout: Layout;
  readonly dialect: 'postgres' | 'mysql';
  /** Node ids the database registers: that many transactions issue ids at once. @default 4 */
  readonly nodes?: number;
  /** The application's lease table. @default 'snowkey_node_leases' */
  readonly leaseTable?: string;
  /** The table of the database's node ids and their last (unit, sequence). @default 'snowkey_sql_nodes' */
  readonly nodesTable?: string;
  /** MySQL/MariaDB: `table` or `table.column` keys a BEFORE INSERT trigger fills when NULL or 0. */
  readonly fill?: readonly string[];
}

/** SQL to run in order: `statements` one by one through a driver, or `text` in `psql` / `mysql`. */
export interface SqlScript {
  readonly statements: readonly string[];
  readonly text: string;
}

/** The layout's numbers and the tables' names, checked, that every dialect's SQL is written from. */
export interface GeneratorPlan {
  readonly leaseTable: string;
  readonly nodesTable: string;
  readonly nodes: number;
  readonly fill: readonly { readonly table: string; readonly column: string }[];
  readonly epoch: number;
  readonly unitMs: number;
  readonly timestampShift: number;
  readonly sequenceShift: number;
  readonly sequenceBits: number;
  /** Where the packed node id sits: above the sequence (node-sequence) or at bit 0 (sequence-node). */
  readonly nodeShift: number;
  readonly maxSequence: number;
  /** The first sequence of a new unit restarts at 0 from here (modulo balance, SPEC.md section 4). */
  readonly halfSequence: number;
  /** The last unit whose ids fit a signed BIGINT. */
  readonly maxUnit: number;
  readonly maxNodeId: number;
  /** A lease row that never expires: 2^53 - 1, the largest integer the lease code reads exactly. */
  readonly forever: number;
  readonly holder: string;
}

/**
 * The SQL that installs `snowkey_next_id()` in PostgreSQL or MySQL/MariaDB: ids of the
 * application's layout, from node ids registered in the application's own lease table.
 *
 * @example
 * const script = sqlGeneratorScript({ layout: layouts.snowkey, dialect: 'postgres' });
 * for (const sql of script.statements) await client.execute(sql);
 */
export function sqlGeneratorScript(options: SqlGeneratorOptions): SqlScript {
  // The database holds its node ids as DATABASE_HOLDER rows that never expire, taking the highest
  // free ones as applications take the lowest. Each node id's last (unit, sequence) is updated in
  // the calling transaction and locked with SKIP LOCKED, so concurrent transactions use different
  // node ids; a clock behind the stored unit continues from it, so no id repeats.
  const plan = planGenerator(options);
  return options.dialect === 'postgres' ? postgresGenerator.install(plan) : mysqlGenerator.install(plan);
}

/**
 * The SQL that removes `snowkey_next_id()` and frees its node ids, recording their last timestamps.
 *
 * @example
 * const script = sqlGeneratorUninstallScript({ layout: layouts.snowkey, dialect: 'mysql', fill: ['orders'] });
 * for (const sql of script.statements) await client.execute(sql);
 */
export function sqlGeneratorUninstallScript(options: SqlGeneratorOptions): SqlScript {
  const plan = planGenerator(options);
  return options.dialect === 'postgres' ? postgresGenerator.uninstall(plan) : mysqlGenerator.uninstall(plan);
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

function planGenerator(options: SqlGeneratorOptions): GeneratorPlan {
  if (options === null || typeof options !== 'object') {
    throw new InvalidArgumentError('options', 'an object like { layout, dialect }', options);
  }
  const { layout, dialect } = options;
  if (dialect !== 'postgres' && dialect !== 'mysql') {
    throw new InvalidArgumentError(
      'dialect',
      "'postgres' or 'mysql' (SQLite: registerSqliteNextId)",
      dialect,
    );
  }
  if (layout === null || typeof layout !== 'object' || typeof layout.timestampShift !== 'number') {
    throw new InvalidArgumentError('layout', 'a layout from layouts or defineLayout', layout);
  }
  if (layout.nodeBitsTotal < 1) {
    throw new InvalidArgumentError(
      'layout',
      'a layout with node bits (the database needs node ids)',
      layout.name,
    );
  }
  const maxNodeId = 2 ** layout.nodeBitsTotal - 1;
  const nodes = options.nodes ?? 4;
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > Math.min(1024, maxNodeId + 1)) {
    throw new InvalidArgumentError(
      'nodes',
      `an integer in 1..${Math.min(1024, maxNodeId + 1)} (layout "${layout.name}" has ${maxNodeId + 1} node ids)`,
      nodes,
    );
  }
  const fill = (options.fill ?? []).map((entry) => {
    const [table, column = 'id', extra] = typeof entry === 'string' ? entry.split('.') : [];
    if (!table || !IDENTIFIER.test(table) || !IDENTIFIER.test(column) || extra !== undefined) {
      throw new InvalidArgumentError('fill', 'table names, or table.column (letters, digits and _)', entry);
    }
    return { table, column };
  });
  if (fill.length > 0 && dialect === 'postgres') {
    throw new InvalidArgumentError(
      'fill',
      'empty on PostgreSQL (use DEFAULT snowkey_next_id())',
      options.fill,
    );
  }
  // An unsigned (64-bit) layout's ids fit a signed BIGINT until the timestamp's top bit is set.
  const signedUnits = 2 ** (63 - layout.timestampShift) - 1;
  return {
    leaseTable: checkTableName(options.leaseTable ?? DEFAULT_LEASE_TABLE),
    nodesTable: checkTableName(options.nodesTable ?? DEFAULT_SQL_NODES_TABLE),
    nodes,
    fill,
    epoch: layout.epoch,
    unitMs: layout.timeUnitMs,
    timestampShift: layout.timestampShift,
    sequenceShift: layout.sequenceShift,
    sequenceBits: layout.sequenceBits,
    nodeShift: layout.order === 'sequence-node' ? 0 : layout.sequenceBits,
    maxSequence: layout.maxSequence,
    halfSequence: (layout.maxSequence + 1) / 2,
    maxUnit: Math.min(layout.maxTimestamp, signedUnits),
    maxNodeId,
    forever: Number.MAX_SAFE_INTEGER,
    holder: DATABASE_HOLDER,
  };
}
