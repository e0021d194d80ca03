/** One column as the engine read it from the database's catalog. */
export interface ColumnInfo {
  readonly name: string;
  /** The type as the catalog names it (`bigint`, `varchar`, `INTEGER`, ...), lowercased. */
  readonly type: string;
  /** The whole declared type, as DDL spells it: `character varying(24)`, `bigint unsigned`, `VARCHAR(24)`. */
  readonly sqlType?: string;
  /** MySQL/MariaDB: the column's collation (text columns). */
  readonly collation?: string | null;
  readonly nullable: boolean;
  /** The declared length of a character column, when it has one. */
  readonly maxLength: number | null;
  /** An integer type (any width). */
  readonly integer: boolean;
  /** A 64-bit integer type: BIGINT, or SQLite's INTEGER. */
  readonly bigint: boolean;
  /** A character type (a rename policy needs one). */
  readonly text: boolean;
  /** Computed by the database (GENERATED ... AS): never written. */
  readonly generated: boolean;
  /** AUTO_INCREMENT, serial, IDENTITY, or SQLite's INTEGER PRIMARY KEY. */
  readonly autoIncrement: boolean;
  /** PostgreSQL's GENERATED ALWAYS AS IDENTITY: an INSERT with a value needs OVERRIDING SYSTEM VALUE. */
  readonly identityAlways?: boolean;
}

/** A foreign key: `columns` of `table` reference `refColumns` of `refTable`, in pairs. */
export interface ForeignKeyInfo {
  readonly name: string;
  readonly table: string;
  readonly columns: readonly string[];
  readonly refTable: string;
  readonly refColumns: readonly string[];
}

/** A UNIQUE constraint or unique index (not the primary key). */
export interface UniqueInfo {
  readonly name: string;
  readonly columns: readonly string[];
}

/** One table: its columns in order, its primary key, unique constraints and foreign keys. */
export interface TableInfo {
  readonly name: string;
  readonly columns: readonly ColumnInfo[];
  /** Empty when the table has none. */
  readonly primaryKey: readonly string[];
  readonly uniques: readonly UniqueInfo[];
  readonly foreignKeys: readonly ForeignKeyInfo[];
}

/** What {@link readSchema} found in one database. */
export interface SchemaInfo {
  readonly dialect: 'postgres' | 'mysql' | 'sqlite';
  /** Every table, by name. The engine's own bookkeeping tables (`snowkey_merge_*`, `snowkey_rekey_*`) are left out. */
  readonly tables: readonly TableInfo[];
}

/**
 * The columns a row is identified by: the primary key, else the first unique constraint whose
 * columns are all NOT NULL; null when the table has neither.
 */
export function rowKey(table: TableInfo): readonly string[] | null {
  if (table.primaryKey.length > 0) return table.primaryKey;
  const notNull = (c: string) => table.columns.find((x) => x.name === c)?.nullable === false;
  return table.uniques.find((u) => u.columns.every(notNull))?.columns ?? null;
}

/** The column `name` of `table`. */
export function column(table: TableInfo, name: string): ColumnInfo {
  const c = table.columns.find((x) => x.name === name);
  if (!c) throw new Error(`table ${table.name} has no column ${name}`);
  return c;
}
