import { InvalidArgumentError, idRangeForTime, type Layout, sqliteKeyGuardDdl } from '@snowkey/core';
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

/** What {@link planAdopt} needs. */
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

/** A table the plan will not switch, and why. */
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
 * rows, existing rows untouched; reads the catalog only.
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
    const state = await readKeyState(db, table, key);
    // Once a table takes snowkey ids (a run before switched it), its largest key is one of them.
    if (maxKey !== null && maxKey >= firstId && !takesSnowkeyIds(db.dialect, key, state)) {
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
    const tableSteps = await stepsFor(db, keys, pending, table, key, state, references, all);
    if (typeof tableSteps === 'string') refused.push({ table: table.name, reason: tableSteps });
    else steps.push(...tableSteps);
  }
  return { dialect: db.dialect, keys, firstId, tables, steps, refused, pending };
}

/** What the database does with a key today, read once per table from its catalog. */
interface KeyState {
  /** SQLite: the trigger that refuses a missing key exists. */
  readonly guarded: boolean;
  /** PostgreSQL: the column's DEFAULT expression and whether it is an identity. */
  readonly pgDefault: string | null;
  readonly pgIdentity: boolean;
  /** MySQL/MariaDB: a trigger fills the key with snowkey_next_id(). */
  readonly filled: boolean;
}

async function readKeyState(db: MergeSqlClient, table: TableInfo, key: ColumnInfo): Promise<KeyState> {
  const none = { guarded: false, pgDefault: null, pgIdentity: false, filled: false };
  if (db.dialect === 'sqlite') {
    const [found] = await db.query<{ n: unknown }>(
      `SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'trigger' AND name = ?`,
      [guardName(table, key)],
    );
    return { ...none, guarded: Number(found?.n ?? 0) > 0 };
  }
  if (db.dialect === 'postgres') {
    const [col] = await db.query<{ column_default: string | null; is_identity: string }>(
      `SELECT column_default, is_identity FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? AND column_name = ?`,
      [table.name, key.name],
    );
    return { ...none, pgDefault: col?.column_default ?? null, pgIdentity: col?.is_identity === 'YES' };
  }
  const [trigger] = await db.query<{ n: unknown }>(
    `SELECT COUNT(*) AS n FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() AND EVENT_OBJECT_TABLE = ? AND ACTION_STATEMENT LIKE '%snowkey_next_id%'`,
    [table.name],
  );
  return { ...none, filled: Number(trigger?.n ?? 0) > 0 };
}

const NEXT_ID_DEFAULT = /snowkey_next_id\(\)/;

/** Whether new rows of a table already get snowkey ids: the database no longer numbers its key. */
function takesSnowkeyIds(dialect: MergeSqlClient['dialect'], key: ColumnInfo, state: KeyState): boolean {
  if (dialect === 'sqlite') return state.guarded;
  if (dialect === 'postgres')
    return (
      NEXT_ID_DEFAULT.test(state.pgDefault ?? '') ||
      (key.bigint && state.pgDefault === null && !state.pgIdentity)
    );
  return state.filled || (key.bigint && !key.autoIncrement);
}

/** The name core's `sqliteKeyGuardDdl` gives the trigger that refuses a missing key. */
const guardName = (table: TableInfo, key: ColumnInfo) => `${table.name}_${key.name}_key_guard`;

/** The ON DELETE and ON UPDATE rules of a MySQL foreign key. */
async function foreignKeyRules(db: MergeSqlClient, name: string): Promise<{ d: string; u: string }> {
  const [rules] = await db.query<{ d: string; u: string }>(
    'SELECT DELETE_RULE AS d, UPDATE_RULE AS u FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = DATABASE() AND CONSTRAINT_NAME = ?',
    [name],
  );
  return rules ?? { d: 'RESTRICT', u: 'RESTRICT' };
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
  state: KeyState,
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
    if (!state.guarded) {
      let sql: string;
      try {
        sql = sqliteKeyGuardDdl(table.name, key.name);
      } catch (err) {
        if (!(err instanceof InvalidArgumentError)) throw err;
        return `its ${err.argument} name cannot be put in the guard trigger's name (${err.expected})`;
      }
      steps.push({
        table: table.name,
        what: `refuse an INSERT without ${key.name} (SQLite would number it max + 1)`,
        sql,
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
    if (state.pgIdentity)
      steps.push({
        table: table.name,
        what: `stop numbering ${key.name} (drop its identity)`,
        sql: `ALTER TABLE ${t} ALTER COLUMN ${k} DROP IDENTITY IF EXISTS`,
      });
    const current = state.pgDefault;
    if (keys === 'sql') {
      if (!NEXT_ID_DEFAULT.test(current ?? '')) {
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
  const numbering = keys === 'sql' && !state.filled;
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
        const rules = await foreignKeyRules(db, r.fk);
        steps.push(
          { table: r.table.name, what: 'keep a note of the foreign keys adopt drops', sql: PENDING_DDL },
          {
            table: r.table.name,
            what: `note foreign key ${r.fk} before it is dropped`,
            sql: `INSERT INTO ${PENDING_FOREIGN_KEYS} VALUES (${[r.fk, r.table.name, r.column.name, table.name, key.name, rules.d, rules.u].map(lit).join(', ')})`,
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
    const rules = p ? { d: p.on_delete, u: p.on_update } : await foreignKeyRules(db, r.name);
    steps.push({
      table: r.child,
      what: `add foreign key ${r.name} again`,
      sql: `ALTER TABLE ${q(r.child)} ADD CONSTRAINT ${q(r.name)} FOREIGN KEY (${q(r.column)}) REFERENCES ${t} (${k}) ON DELETE ${rules.d} ON UPDATE ${rules.u}`,
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
