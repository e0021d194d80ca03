import { InvalidArgumentError, idRangeForTime, type Layout } from '@snowkey/core';
import type { MergeSqlClient } from '../database.js';
import { MergeSchemaError } from '../errors.js';
import { readSchema } from '../read-schema.js';
import type { ColumnInfo, TableInfo } from '../schema.js';
import { quote } from '../sql.js';

/**
 * Who gives new rows their key once a table is adopted: `'app'` (the application, through snowkey;
 * an INSERT without a key is refused) or `'sql'` (the database-side `snowkey_next_id()`, which
 * `snowkey sql install` creates: a column DEFAULT on PostgreSQL, a BEFORE INSERT trigger on MySQL).
 */
export type AdoptKeys = 'app' | 'sql';

/**
 * What {@link planAdopt} needs.
 *
 * @example
 * const plan = await planAdopt(db, { layout: layouts.snowkey, keys: 'app' });
 */
export interface AdoptOptions {
  readonly layout: Layout;
  /** Only these tables (default: every table with a single integer primary key). */
  readonly tables?: readonly string[];
  /** Default `'app'`. */
  readonly keys?: AdoptKeys;
  /** Ms since 1970 (default `Date.now()`): the first id the layout can issue is computed at this time. */
  readonly now?: number;
}

/** One statement of a plan, with what it does. */
export interface AdoptStep {
  readonly table: string;
  readonly what: string;
  readonly sql: string;
}

/**
 * A table the plan will not switch, and why.
 *
 * @example
 * const r: AdoptRefusal = { table: 'logs', reason: 'its primary key (ts, seq) has 2 columns' };
 */
export interface AdoptRefusal {
  readonly table: string;
  readonly reason: string;
}

/**
 * What `snowkey adopt` would do: the statements still to run (none when the tables are switched
 * already: a plan read again after a partial run holds only what is left), the tables it refuses
 * and why, and for each table its largest key against the first id the layout can issue.
 */
export interface AdoptPlan {
  readonly dialect: MergeSqlClient['dialect'];
  readonly keys: AdoptKeys;
  readonly firstId: bigint;
  readonly tables: readonly { table: string; key: string; maxKey: bigint | null }[];
  readonly steps: readonly AdoptStep[];
  readonly refused: readonly AdoptRefusal[];
  /** What the operator does after these steps (MySQL with keys 'sql': install the fill trigger, then adopt again). */
  readonly pending: readonly string[];
}

const SKIPPED_PREFIX = 'snowkey_';
/** MySQL: the foreign keys adopt dropped and has not added again yet. */
const PENDING_FOREIGN_KEYS = 'snowkey_adopt_foreign_keys';
const PENDING_DDL = `CREATE TABLE IF NOT EXISTS ${PENDING_FOREIGN_KEYS} (name VARCHAR(64) NOT NULL PRIMARY KEY, child VARCHAR(64) NOT NULL, child_column VARCHAR(64) NOT NULL, parent VARCHAR(64) NOT NULL, parent_column VARCHAR(64) NOT NULL, on_delete VARCHAR(16) NOT NULL, on_update VARCHAR(16) NOT NULL)`;

interface PendingForeignKey {
  name: string;
  child: string;
  child_column: string;
  on_delete: string;
  on_update: string;
}

async function readPendingForeignKeys(db: MergeSqlClient, parent: string): Promise<PendingForeignKey[]> {
  const [exists] = await db.query<{ n: unknown }>(
    'SELECT COUNT(*) AS n FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?',
    [PENDING_FOREIGN_KEYS],
  );
  if (Number(exists?.n ?? 0) === 0) return [];
  return db.query<PendingForeignKey>(
    `SELECT name, child, child_column, on_delete, on_update FROM ${PENDING_FOREIGN_KEYS} WHERE parent = ?`,
    [parent],
  );
}

function columnOf(tables: readonly TableInfo[], table: string, column: string): ColumnInfo {
  const c = tables.find((t) => t.name === table)?.columns.find((x) => x.name === column);
  if (!c)
    throw new MergeSchemaError([
      `${table}.${column} is gone: the foreign key adopt dropped from it (noted in ${PENDING_FOREIGN_KEYS}) cannot be added again`,
    ]);
  return c;
}

/**
 * Plans the switch of existing tables from SERIAL / AUTO_INCREMENT keys to snowkey ids for new
 * rows, without touching existing rows: keys and the foreign keys that reference them widened to
 * BIGINT, every existing key checked to be below the first id the layout can issue, and the key's
 * default replaced (dropped, so the application sets it; or `snowkey_next_id()`; on SQLite a
 * trigger that refuses a missing key). It reads the catalog only.
 *
 * @example
 * const plan = await planAdopt(db, { layout: layouts.snowkey });
 * for (const s of plan.steps) console.log(s.table, s.what, s.sql);
 */
export async function planAdopt(db: MergeSqlClient, options: AdoptOptions): Promise<AdoptPlan> {
  const keys = options.keys ?? 'app';
  if (keys !== 'app' && keys !== 'sql') throw new InvalidArgumentError('keys', "'app' or 'sql'", keys);
  const now = options.now ?? Date.now();
  const firstId = idRangeForTime(now, now, { layout: options.layout }).minId;
  const schema = await readSchema(db);
  const all = schema.tables.filter((t) => !t.name.startsWith(SKIPPED_PREFIX));
  const wanted = options.tables ?? all.map((t) => t.name);
  const steps: AdoptStep[] = [];
  const refused: AdoptRefusal[] = [];
  const pending: string[] = [];
  const tables: AdoptPlan['tables'][number][] = [];
  const q = (name: string) => quote(db.dialect, name);
  for (const name of wanted) {
    const table = all.find((t) => t.name === name);
    const refusal = table ? whyNot(table) : 'no such table';
    if (refusal !== null || !table) {
      refused.push({ table: name, reason: refusal ?? 'no such table' });
      continue;
    }
    const key = table.columns.find((c) => c.name === table.primaryKey[0])!;
    const [row] = await db.query<{ m: unknown }>(`SELECT MAX(${q(key.name)}) AS m FROM ${q(table.name)}`);
    const maxKey = row?.m === null || row?.m === undefined ? null : BigInt(row.m as bigint | number | string);
    tables.push({ table: table.name, key: key.name, maxKey });
    // Once a table takes snowkey ids (a run before switched it), its largest key is one of them.
    if (maxKey !== null && maxKey >= firstId && !(await takesSnowkeyIds(db, table, key))) {
      refused.push({
        table: table.name,
        reason: `its largest key ${maxKey} is not below ${firstId}, the first id the layout can issue now: new ids could meet old ones`,
      });
      continue;
    }
    const references = all.flatMap((t) =>
      t.foreignKeys
        .filter(
          (fk) => fk.refTable === table.name && fk.refColumns.length === 1 && fk.refColumns[0] === key.name,
        )
        .map((fk) => ({ table: t, column: t.columns.find((c) => c.name === fk.columns[0])!, fk: fk.name })),
    );
    const tableSteps = await stepsFor(db, keys, pending, table, key, references, all);
    if (typeof tableSteps === 'string') refused.push({ table: table.name, reason: tableSteps });
    else steps.push(...tableSteps);
  }
  return { dialect: db.dialect, keys, firstId, tables, steps, refused, pending };
}

/** Whether new rows of `table` already get snowkey ids: the database no longer numbers its key. */
async function takesSnowkeyIds(db: MergeSqlClient, table: TableInfo, key: ColumnInfo): Promise<boolean> {
  if (db.dialect === 'sqlite') {
    const [found] = await db.query<{ n: unknown }>(
      `SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'trigger' AND name = ?`,
      [`${table.name}_${key.name}_key_guard`],
    );
    return Number(found?.n ?? 0) > 0;
  }
  if (db.dialect === 'postgres') {
    const [col] = await db.query<{ column_default: string | null; is_identity: string }>(
      `SELECT column_default, is_identity FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? AND column_name = ?`,
      [table.name, key.name],
    );
    const current = col?.column_default ?? null;
    return (
      /snowkey_next_id\(\)/.test(current ?? '') ||
      (key.bigint && current === null && col?.is_identity !== 'YES')
    );
  }
  const [trigger] = await db.query<{ n: unknown }>(
    `SELECT COUNT(*) AS n FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() AND EVENT_OBJECT_TABLE = ? AND ACTION_STATEMENT LIKE '%snowkey_next_id%'`,
    [table.name],
  );
  return Number(trigger?.n ?? 0) > 0 || (key.bigint && !key.autoIncrement);
}

/** Why a table cannot be adopted, or null. */
function whyNot(table: TableInfo): string | null {
  if (table.primaryKey.length === 0) return 'it has no primary key';
  if (table.primaryKey.length > 1)
    return `its primary key (${table.primaryKey.join(', ')}) has ${table.primaryKey.length} columns; snowkey ids key one column`;
  const key = table.columns.find((c) => c.name === table.primaryKey[0]);
  if (!key?.integer) return `its primary key ${table.primaryKey[0]} is not an integer column (${key?.type})`;
  return null;
}

const isUnsigned = (c: ColumnInfo) => /unsigned/i.test(c.sqlType ?? c.type);

/** The statements one table still needs, or why it cannot have them. */
async function stepsFor(
  db: MergeSqlClient,
  keys: AdoptKeys,
  pending: string[],
  table: TableInfo,
  key: ColumnInfo,
  references: readonly { table: TableInfo; column: ColumnInfo; fk: string }[],
  all: readonly TableInfo[],
): Promise<AdoptStep[] | string> {
  const q = (name: string) => quote(db.dialect, name);
  const t = q(table.name);
  const k = q(key.name);
  const steps: AdoptStep[] = [];
  if (db.dialect === 'sqlite') {
    if (keys === 'sql')
      return 'SQLite has no database-side default for it: snowkey_next_id() is a function of each connection (use keys app)';
    const guard = `${table.name}_${key.name}_key_guard`;
    const [found] = await db.query<{ n: unknown }>(
      `SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'trigger' AND name = ?`,
      [guard],
    );
    if (Number(found?.n ?? 0) === 0) {
      steps.push({
        table: table.name,
        what: `refuse an INSERT without ${key.name} (SQLite would number it max + 1)`,
        sql:
          `CREATE TRIGGER IF NOT EXISTS ${q(guard)} BEFORE INSERT ON ${t} ` +
          `WHEN NEW.${k} IS NULL OR NEW.${k} < 1 ` +
          `BEGIN SELECT RAISE(ABORT, '${table.name.replaceAll("'", "''")}.${key.name.replaceAll("'", "''")} must be set by the application: a key in 1..2^63-1, not NULL'); END`,
      });
    }
    return steps;
  }
  if (db.dialect === 'postgres') {
    for (const r of [{ table, column: key }, ...references]) {
      if (!r.column.bigint) {
        steps.push({
          table: r.table.name,
          what: `widen ${r.column.name} from ${r.column.type} to bigint${r.table === table ? '' : ` (it references ${table.name}.${key.name})`}`,
          sql: `ALTER TABLE ${q(r.table.name)} ALTER COLUMN ${q(r.column.name)} TYPE BIGINT`,
        });
      }
    }
    const [col] = await db.query<{ column_default: string | null; is_identity: string }>(
      `SELECT column_default, is_identity FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? AND column_name = ?`,
      [table.name, key.name],
    );
    if (col?.is_identity === 'YES')
      steps.push({
        table: table.name,
        what: `stop numbering ${key.name} (drop its identity)`,
        sql: `ALTER TABLE ${t} ALTER COLUMN ${k} DROP IDENTITY IF EXISTS`,
      });
    const current = col?.column_default ?? null;
    if (keys === 'sql') {
      if (!/snowkey_next_id\(\)/.test(current ?? '')) {
        const [fn] = await db.query<{ n: unknown }>(
          `SELECT COUNT(*) AS n FROM pg_proc WHERE proname = 'snowkey_next_id'`,
        );
        if (Number(fn?.n ?? 0) === 0)
          return 'snowkey_next_id() is not installed: run snowkey sql install --url ... first';
        steps.push({
          table: table.name,
          what: `default ${key.name} to snowkey_next_id()`,
          sql: `ALTER TABLE ${t} ALTER COLUMN ${k} SET DEFAULT snowkey_next_id()`,
        });
      }
    } else if (current !== null) {
      steps.push({
        table: table.name,
        what: `drop ${key.name}'s default (${current}): the application sets it`,
        sql: `ALTER TABLE ${t} ALTER COLUMN ${k} DROP DEFAULT`,
      });
    }
    return steps;
  }
  // MySQL / MariaDB refuse to change a column a foreign key uses, whatever FOREIGN_KEY_CHECKS says:
  // each such key is dropped, both columns widened, and the key added again with its rules. What was
  // dropped is written first to PENDING_FOREIGN_KEYS, so a run cut off in between adds it back.
  // With keys 'sql', AUTO_INCREMENT stays until a trigger fills the key with snowkey_next_id(): an
  // INSERT without a key must always get one.
  const filled =
    keys === 'sql' &&
    Number(
      (
        await db.query<{ n: unknown }>(
          `SELECT COUNT(*) AS n FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() AND EVENT_OBJECT_TABLE = ? AND ACTION_STATEMENT LIKE '%snowkey_next_id%'`,
          [table.name],
        )
      )[0]?.n ?? 0,
    ) > 0;
  const numbering = keys === 'sql' && !filled;
  const pendingKeys = await readPendingForeignKeys(db, table.name);
  const refs = [
    ...references.map((r) => ({ child: r.table.name, column: r.column, name: r.fk })),
    ...pendingKeys
      .filter((p) => !references.some((r) => r.fk === p.name))
      .map((p) => ({ child: p.child, column: columnOf(all, p.child, p.child_column), name: p.name })),
  ];
  const widen = !key.bigint || refs.some((r) => !r.column.bigint);
  const dropped = new Set(pendingKeys.map((p) => p.name));
  const lit = (v: string) => `'${v.replaceAll("'", "''")}'`;
  if (widen) {
    for (const r of references) {
      if (!dropped.has(r.fk)) {
        const [rules] = await db.query<{ d: string; u: string }>(
          'SELECT DELETE_RULE AS d, UPDATE_RULE AS u FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE() AND CONSTRAINT_NAME = ?',
          [r.fk],
        );
        steps.push(
          { table: r.table.name, what: 'keep a note of the foreign keys adopt drops', sql: PENDING_DDL },
          {
            table: r.table.name,
            what: `note foreign key ${r.fk} before it is dropped`,
            sql: `INSERT INTO ${PENDING_FOREIGN_KEYS} VALUES (${[r.fk, r.table.name, r.column.name, table.name, key.name, rules?.d ?? 'RESTRICT', rules?.u ?? 'RESTRICT'].map(lit).join(', ')})`,
          },
        );
      }
      steps.push({
        table: r.table.name,
        what: `drop foreign key ${r.fk} while both its columns are widened`,
        sql: `ALTER TABLE ${q(r.table.name)} DROP FOREIGN KEY ${q(r.fk)}`,
      });
    }
  }
  if (!key.bigint || (key.autoIncrement && !numbering)) {
    const what = [
      key.bigint ? '' : `widen ${key.name} from ${key.type} to bigint`,
      numbering ? '' : key.autoIncrement ? 'stop numbering it (drop AUTO_INCREMENT)' : '',
    ].filter(Boolean);
    steps.push({
      table: table.name,
      what: what.join(', '),
      sql: `ALTER TABLE ${t} MODIFY ${k} BIGINT${isUnsigned(key) ? ' UNSIGNED' : ''} NOT NULL${numbering && key.autoIncrement ? ' AUTO_INCREMENT' : ''}`,
    });
  }
  for (const r of refs) {
    if (!r.column.bigint)
      steps.push({
        table: r.child,
        what: `widen ${r.column.name} from ${r.column.type} to bigint (it references ${table.name}.${key.name})`,
        sql: `ALTER TABLE ${q(r.child)} MODIFY ${q(r.column.name)} BIGINT${isUnsigned(r.column) ? ' UNSIGNED' : ''}${r.column.nullable ? ' NULL' : ' NOT NULL'}`,
      });
  }
  const readd = [
    ...(widen ? references.map((r) => ({ name: r.fk, child: r.table.name, column: r.column.name })) : []),
    ...pendingKeys
      .filter((p) => !references.some((r) => r.fk === p.name))
      .map((p) => ({ name: p.name, child: p.child, column: p.child_column })),
  ];
  for (const r of readd) {
    const p = pendingKeys.find((x) => x.name === r.name);
    const [rules] = p
      ? [{ d: p.on_delete, u: p.on_update }]
      : await db.query<{ d: string; u: string }>(
          'SELECT DELETE_RULE AS d, UPDATE_RULE AS u FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE() AND CONSTRAINT_NAME = ?',
          [r.name],
        );
    steps.push({
      table: r.child,
      what: `add foreign key ${r.name} again`,
      sql: `ALTER TABLE ${q(r.child)} ADD CONSTRAINT ${q(r.name)} FOREIGN KEY (${q(r.column)}) REFERENCES ${t} (${k}) ON DELETE ${rules?.d ?? 'RESTRICT'} ON UPDATE ${rules?.u ?? 'RESTRICT'}`,
    });
  }
  // A noted key that is back (added again before a run was cut off) only needs its note removed.
  for (const p of pendingKeys)
    if (readd.some((r) => r.name === p.name) || references.some((r) => r.fk === p.name))
      steps.push({
        table: p.child,
        what: `forget the note of foreign key ${p.name}`,
        sql: `DELETE FROM ${PENDING_FOREIGN_KEYS} WHERE name = ${lit(p.name)}`,
      });
  if (widen)
    for (const r of references)
      if (!dropped.has(r.fk))
        steps.push({
          table: r.table.name,
          what: `forget the note of foreign key ${r.fk}`,
          sql: `DELETE FROM ${PENDING_FOREIGN_KEYS} WHERE name = ${lit(r.fk)}`,
        });
  if (numbering && key.autoIncrement)
    pending.push(
      `${table.name}: then snowkey sql install --fill ${table.name}.${key.name} --url ..., and adopt again with keys sql to stop AUTO_INCREMENT`,
    );
  return steps;
}
