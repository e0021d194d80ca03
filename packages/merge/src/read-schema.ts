import type { MergeSqlClient } from './database.js';
import type { ColumnInfo, ForeignKeyInfo, SchemaInfo, TableInfo, UniqueInfo } from './schema.js';

/** The engine's own tables, never merged. */
export const BOOKKEEPING_PREFIXES = ['snowkey_merge_', 'snowkey_rekey_'] as const;

type Row = Record<string, unknown>;

/**
 * Reads a database's tables from its catalog: columns, primary keys, unique constraints and
 * unique indexes (not partial ones, not on expressions), and foreign keys, composite ones and
 * self-references included. PostgreSQL: the current schema; MySQL/MariaDB: the current database.
 */
export async function readSchema(db: MergeSqlClient): Promise<SchemaInfo> {
  const parts =
    db.dialect === 'postgres'
      ? await readPostgres(db)
      : db.dialect === 'mysql'
        ? await readMysql(db)
        : await readSqlite(db);
  const tables = parts
    .filter((t) => !BOOKKEEPING_PREFIXES.some((p) => t.name.startsWith(p)))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { dialect: db.dialect, tables };
}

interface Gathered {
  names: string[];
  columns: Map<string, ColumnInfo[]>;
  keys: Map<string, { primary: boolean; name: string; columns: string[] }[]>;
  fks: Map<string, ForeignKeyInfo[]>;
}

function assemble(g: Gathered): TableInfo[] {
  return g.names.map((name) => {
    const keys = g.keys.get(name) ?? [];
    const primary = keys.find((k) => k.primary);
    const uniques: UniqueInfo[] = keys
      .filter((k) => !k.primary && k.columns.join() !== primary?.columns.join())
      .map((k) => ({ name: k.name, columns: k.columns }))
      // By columns, so every dialect lists them (and a merge applies their policies) in one order.
      .sort((a, b) => (a.columns.join('+') < b.columns.join('+') ? -1 : 1));
    return {
      name,
      columns: g.columns.get(name) ?? [],
      primaryKey: primary?.columns ?? [],
      uniques,
      foreignKeys: g.fks.get(name) ?? [],
    };
  });
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Groups (table, constraint, column) rows in order into one entry per constraint. */
function grouped(rows: Row[], constraint: string): Map<string, Row[]> {
  const out = new Map<string, Row[]>();
  for (const r of rows) push(out, `${String(r.table_name)}\u0000${String(r[constraint])}`, r);
  return out;
}

const PG_INTEGER = new Set(['smallint', 'integer', 'bigint']);
const PG_TEXT = new Set(['character varying', 'character', 'text', 'citext']);

async function readPostgres(db: MergeSqlClient): Promise<TableInfo[]> {
  const names = (
    await db.query<Row>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
    )
  ).map((r) => String(r.table_name));
  const columns = new Map<string, ColumnInfo[]>();
  for (const r of await db.query<Row>(
    `SELECT c.table_name, c.column_name, c.data_type, c.is_nullable, c.character_maximum_length, c.column_default,
            c.is_identity, c.identity_generation, c.is_generated,
            (SELECT format_type(a.atttypid, a.atttypmod) FROM pg_attribute a
              WHERE a.attrelid = (quote_ident(c.table_schema) || '.' || quote_ident(c.table_name))::regclass
                AND a.attname = c.column_name) AS sql_type
       FROM information_schema.columns c WHERE c.table_schema = current_schema()
      ORDER BY c.table_name, c.ordinal_position`,
  )) {
    const type = String(r.data_type);
    push(columns, String(r.table_name), {
      name: String(r.column_name),
      type,
      sqlType: String(r.sql_type),
      nullable: r.is_nullable === 'YES',
      maxLength: r.character_maximum_length === null ? null : Number(r.character_maximum_length),
      integer: PG_INTEGER.has(type),
      bigint: type === 'bigint',
      text: PG_TEXT.has(type),
      generated: r.is_generated === 'ALWAYS',
      autoIncrement: r.is_identity === 'YES' || /^nextval\(/.test(String(r.column_default ?? '')),
      identityAlways: r.identity_generation === 'ALWAYS',
    });
  }
  const keys = new Map<string, { primary: boolean; name: string; columns: string[] }[]>();
  const keyRows = await db.query<Row>(
    `SELECT t.relname AS table_name, i.relname AS index_name, ix.indisprimary AS is_primary, a.attname AS column_name
       FROM pg_index ix
       JOIN pg_class t ON t.oid = ix.indrelid
       JOIN pg_class i ON i.oid = ix.indexrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
       CROSS JOIN LATERAL unnest(ix.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
       JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
      WHERE n.nspname = current_schema() AND ix.indisunique AND ix.indpred IS NULL
        AND NOT (0 = ANY (ix.indkey::int2[])) AND k.ord <= ix.indnkeyatts
      ORDER BY t.relname, i.relname, k.ord`,
  );
  for (const [, rows] of grouped(keyRows, 'index_name')) {
    push(keys, String(rows[0]!.table_name), {
      primary: rows[0]!.is_primary === true,
      name: String(rows[0]!.index_name),
      columns: rows.map((r) => String(r.column_name)),
    });
  }
  const fkRows = await db.query<Row>(
    `SELECT c.conname, t.relname AS table_name, rt.relname AS ref_table, a.attname AS column_name, ra.attname AS ref_column
       FROM pg_constraint c
       JOIN pg_class t ON t.oid = c.conrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
       JOIN pg_class rt ON rt.oid = c.confrelid
       CROSS JOIN LATERAL unnest(c.conkey, c.confkey) WITH ORDINALITY AS k(attnum, refattnum, ord)
       JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
       JOIN pg_attribute ra ON ra.attrelid = c.confrelid AND ra.attnum = k.refattnum
      WHERE c.contype = 'f' AND n.nspname = current_schema()
      ORDER BY t.relname, c.conname, k.ord`,
  );
  return assemble({ names, columns, keys, fks: foreignKeys(fkRows, 'conname') });
}

function foreignKeys(rows: Row[], constraint: string): Map<string, ForeignKeyInfo[]> {
  const fks = new Map<string, ForeignKeyInfo[]>();
  for (const [, group] of grouped(rows, constraint)) {
    const first = group[0]!;
    push(fks, String(first.table_name), {
      name: String(first[constraint]),
      table: String(first.table_name),
      columns: group.map((r) => String(r.column_name)),
      refTable: String(first.ref_table),
      refColumns: group.map((r) => String(r.ref_column)),
    });
  }
  return fks;
}

const MYSQL_INTEGER = new Set(['tinyint', 'smallint', 'mediumint', 'int', 'integer', 'bigint']);
const MYSQL_TEXT = new Set(['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext']);

async function readMysql(db: MergeSqlClient): Promise<TableInfo[]> {
  const names = (
    await db.query<Row>(
      "SELECT TABLE_NAME AS table_name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE'",
    )
  ).map((r) => String(r.table_name));
  const columns = new Map<string, ColumnInfo[]>();
  for (const r of await db.query<Row>(
    `SELECT TABLE_NAME AS table_name, COLUMN_NAME AS column_name, DATA_TYPE AS data_type, IS_NULLABLE AS is_nullable,
            CHARACTER_MAXIMUM_LENGTH AS max_length, EXTRA AS extra, COLUMN_TYPE AS column_type, COLLATION_NAME AS collation_name
       FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()
      ORDER BY TABLE_NAME, ORDINAL_POSITION`,
  )) {
    const type = String(r.data_type).toLowerCase();
    const extra = String(r.extra ?? '');
    push(columns, String(r.table_name), {
      name: String(r.column_name),
      type,
      sqlType: String(r.column_type).toLowerCase(),
      collation: r.collation_name === null ? null : String(r.collation_name),
      nullable: r.is_nullable === 'YES',
      maxLength: r.max_length === null ? null : Number(r.max_length),
      integer: MYSQL_INTEGER.has(type),
      bigint: type === 'bigint',
      text: MYSQL_TEXT.has(type),
      generated: /GENERATED/i.test(extra) && !/DEFAULT_GENERATED/i.test(extra),
      autoIncrement: /auto_increment/i.test(extra),
    });
  }
  const keys = new Map<string, { primary: boolean; name: string; columns: string[] }[]>();
  const keyRows = await db.query<Row>(
    `SELECT TABLE_NAME AS table_name, INDEX_NAME AS index_name, COLUMN_NAME AS column_name, SUB_PART AS sub_part
       FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND NON_UNIQUE = 0
      ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`,
  );
  for (const [, rows] of grouped(keyRows, 'index_name')) {
    // A prefix or expression index does not make the whole value unique.
    if (rows.some((r) => r.column_name === null || r.sub_part !== null)) continue;
    push(keys, String(rows[0]!.table_name), {
      primary: rows[0]!.index_name === 'PRIMARY',
      name: String(rows[0]!.index_name),
      columns: rows.map((r) => String(r.column_name)),
    });
  }
  const fkRows = await db.query<Row>(
    `SELECT TABLE_NAME AS table_name, CONSTRAINT_NAME AS constraint_name, COLUMN_NAME AS column_name,
            REFERENCED_TABLE_NAME AS ref_table, REFERENCED_COLUMN_NAME AS ref_column
       FROM information_schema.KEY_COLUMN_USAGE
      WHERE TABLE_SCHEMA = DATABASE() AND REFERENCED_TABLE_NAME IS NOT NULL
      ORDER BY TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION`,
  );
  return assemble({ names, columns, keys, fks: foreignKeys(fkRows, 'constraint_name') });
}

async function readSqlite(db: MergeSqlClient): Promise<TableInfo[]> {
  const names = (
    await db.query<Row>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
  ).map((r) => String(r.name));
  const columns = new Map<string, ColumnInfo[]>();
  const keys = new Map<string, { primary: boolean; name: string; columns: string[] }[]>();
  const fkRows: Row[] = [];
  for (const name of names) {
    const info = await db.query<Row>('SELECT * FROM pragma_table_xinfo(?) ORDER BY cid', [name]);
    const pk = info.filter((c) => Number(c.pk) > 0).sort((a, b) => Number(a.pk) - Number(b.pk));
    const rowid = pk.length === 1 && String(pk[0]!.type).toUpperCase() === 'INTEGER';
    for (const c of info) {
      const type = String(c.type ?? '').toLowerCase();
      push(columns, name, {
        name: String(c.name),
        type,
        sqlType: String(c.type ?? ''),
        // SQLite lets a non-rowid PRIMARY KEY column hold NULL unless declared NOT NULL; a rowid never does.
        nullable: Number(c.notnull) === 0 && !(rowid && Number(c.pk) === 1),
        maxLength: /\((\d+)\)/.test(type) ? Number(/\((\d+)\)/.exec(type)![1]) : null,
        integer: type.includes('int'),
        bigint: type.includes('int'),
        text: /char|clob|text/.test(type),
        generated: Number(c.hidden) === 2 || Number(c.hidden) === 3,
        autoIncrement: rowid && Number(c.pk) === 1,
      });
    }
    if (pk.length > 0)
      push(keys, name, { primary: true, name: 'PRIMARY', columns: pk.map((c) => String(c.name)) });
    for (const index of await db.query<Row>('SELECT * FROM pragma_index_list(?)', [name])) {
      if (Number(index.unique) !== 1 || index.origin === 'pk' || Number(index.partial) === 1) continue;
      const cols = await db.query<Row>('SELECT * FROM pragma_index_info(?) ORDER BY seqno', [
        String(index.name),
      ]);
      if (cols.some((c) => c.name === null)) continue;
      push(keys, name, {
        primary: false,
        name: String(index.name),
        columns: cols.map((c) => String(c.name)),
      });
    }
    for (const fk of await db.query<Row>('SELECT * FROM pragma_foreign_key_list(?) ORDER BY id, seq', [
      name,
    ])) {
      fkRows.push({
        table_name: name,
        constraint_name: `${name}_fk${fk.id}`,
        column_name: fk.from,
        ref_table: fk.table,
        ref_column: fk.to,
        seq: fk.seq,
      });
    }
  }
  // `REFERENCES parent` without columns means the parent's primary key.
  for (const r of fkRows) {
    if (r.ref_column === null) {
      const parentPk = (keys.get(String(r.ref_table)) ?? []).find((k) => k.primary)?.columns ?? [];
      r.ref_column = parentPk[Number(r.seq)] ?? null;
    }
  }
  return assemble({ names, columns, keys, fks: foreignKeys(fkRows, 'constraint_name') });
}
