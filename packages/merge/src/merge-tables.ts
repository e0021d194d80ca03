import type { SqlDialect } from '@snowkey/core';
import type { MergeSqlClient } from './database.js';
import type { TablePlanInfo } from './merge-setup.js';
import type { ColumnInfo, ForeignKeyInfo } from './schema.js';
import { quote } from './sql.js';
import { columnType } from './stage-table.js';

/**
 * The names of a merge's working tables in the target: persistent (`snowkey_merge_*`, a run's,
 * resumable) or temporary (`snowkey_plan_*`, a plan's or a verification's, gone with the session).
 */
export class WorkTables {
  constructor(
    readonly prefix: 'snowkey_merge_' | 'snowkey_plan_' | 'snowkey_verify_' | 'snowkey_rekey_',
    readonly temporary: boolean,
  ) {}
  stage(n: number): string {
    return `${this.prefix}stage_${n}`;
  }
  /** Keys held in the target: the target's own, and each source's rows in turn. */
  keys(n: number): string {
    return `${this.prefix}keys_${n}`;
  }
  /** Values of unique constraint `r` held in the target, and by whom. */
  held(n: number, r: number): string {
    return `${this.prefix}held_${n}_${r}`;
  }
  /** Staged rows left out: skipped under a policy (with the row standing in), or key collisions. */
  out(n: number): string {
    return `${this.prefix}out_${n}`;
  }
  /** Staged rows renamed under constraint `r`, and their new value. */
  renamed(n: number, r: number): string {
    return `${this.prefix}renamed_${n}_${r}`;
  }

  async create(
    db: MergeSqlClient,
    name: string,
    columns: readonly string[],
    primaryKey: readonly string[],
  ): Promise<void> {
    const d = db.dialect;
    await this.drop(db, name);
    const kind = this.temporary
      ? d === 'sqlite'
        ? 'TEMP '
        : 'TEMPORARY '
      : d === 'postgres'
        ? 'UNLOGGED '
        : '';
    const pk =
      primaryKey.length > 0 ? `, PRIMARY KEY (${primaryKey.map((c) => quote(d, c)).join(', ')})` : '';
    const tail = d === 'mysql' ? ' ENGINE=InnoDB DEFAULT CHARSET=utf8mb4' : '';
    await db.execute(`CREATE ${kind}TABLE ${quote(d, name)} (${columns.join(', ')}${pk})${tail}`);
  }

  async drop(db: MergeSqlClient, name: string): Promise<void> {
    const temp = this.temporary && db.dialect === 'mysql' ? 'TEMPORARY ' : '';
    await db.execute(`DROP ${temp}TABLE IF EXISTS ${quote(db.dialect, name)}`);
  }

  async index(db: MergeSqlClient, table: string, name: string, columns: readonly string[]): Promise<void> {
    const q = (c: string) => quote(db.dialect, c);
    await db.execute(`CREATE INDEX ${q(name)} ON ${q(table)} (${columns.map(q).join(', ')})`);
  }
}

/** A column definition: `name` with the type of `like`, nullable. */
export function columnDef(
  dialect: SqlDialect,
  name: string,
  like: ColumnInfo | 'smallint' | 'bigint',
): string {
  return `${quote(dialect, name)} ${columnType(dialect, like)}`;
}

/** What a merge knows of a table after its analysis: what the copy must join. */
export interface TableDecisions {
  /** Per source position: first and last staging sequence number, and rows. */
  readonly bounds: Readonly<Record<number, readonly [number, number, number]>>;
  /** Rows skipped under a policy (their references are redirected). */
  readonly skipped: number;
  /** Rows left out in all (skips and key collisions). */
  readonly out: number;
  /** Renamed rows per rule number. */
  readonly renamed: readonly number[];
}

/** The SQL of a staged row's final values: references redirected, renames applied. */
export interface FinalRow {
  /** Joins after `FROM <stage> a`. */
  readonly joins: string;
  /** The final value of column `c` of the staged row `a`. */
  col(c: string): string;
}

/**
 * The joins and expressions that turn a staged row (alias `a`) into the row the target gets:
 * references to rows skipped under a policy point at the rows standing in for them (parents in
 * `decided` that skipped rows), and renamed values replace the originals.
 */
export function finalRow(
  dialect: SqlDialect,
  names: WorkTables,
  info: TablePlanInfo,
  tables: ReadonlyMap<string, TablePlanInfo>,
  decided: ReadonlyMap<string, TableDecisions>,
  options: { renames: boolean; self: boolean },
): FinalRow {
  const q = (c: string) => quote(dialect, c);
  const joins: string[] = [];
  const redirected = new Map<string, string>();
  info.foreignKeys.forEach((fk: ForeignKeyInfo, j) => {
    const parent = tables.get(fk.refTable);
    const d = decided.get(fk.refTable);
    if (!parent || !d || d.skipped === 0) return;
    if (fk.refTable === info.table.name && !options.self) return;
    if ([...fk.refColumns].sort().join() !== [...parent.key].sort().join()) return;
    const alias = `r${j}`;
    const on = parent.key.map((k, i) => `${alias}.k${i} = a.${q(fk.columns[fk.refColumns.indexOf(k)]!)}`);
    joins.push(
      `LEFT JOIN ${q(names.out(parent.number))} ${alias} ON ${alias}.snowkey_src = a.snowkey_src AND ${alias}.snowkey_fate = 1 AND ${on.join(' AND ')}`,
    );
    parent.key.forEach((k, i) => {
      const c = fk.columns[fk.refColumns.indexOf(k)]!;
      if (!redirected.has(c)) {
        redirected.set(c, `CASE WHEN ${alias}.snowkey_seq IS NULL THEN a.${q(c)} ELSE ${alias}.t${i} END`);
      }
    });
  });
  const renamedCol = new Map<string, string>();
  const mine = decided.get(info.table.name);
  if (options.renames && mine) {
    for (const rule of info.rules) {
      if (!rule.renameColumn || (mine.renamed[rule.number] ?? 0) === 0) continue;
      const alias = `n${rule.number}`;
      joins.push(
        `LEFT JOIN ${q(names.renamed(info.number, rule.number))} ${alias} ON ${alias}.snowkey_seq = a.snowkey_seq`,
      );
      renamedCol.set(rule.renameColumn, `COALESCE(${alias}.v, a.${q(rule.renameColumn)})`);
    }
  }
  return {
    joins: joins.join(' '),
    col: (c) => redirected.get(c) ?? renamedCol.get(c) ?? `a.${q(c)}`,
  };
}
