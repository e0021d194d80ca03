/**
 * One column as the engine read it from the database's catalog.
 *
 * @example
 * const c: ColumnInfo = { name: 'name', type: 'varchar', sqlType: 'varchar(40)', nullable: false, maxLength: 40, integer: false, bigint: false, text: true, generated: false, autoIncrement: false };
 */
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

/**
 * A foreign key: `columns` of `table` reference `refColumns` of `refTable`, in pairs.
 *
 * @example
 * const fk: ForeignKeyInfo = { name: 'mail_reply_to_fkey', table: 'mail', columns: ['reply_to'], refTable: 'mail', refColumns: ['id'] };
 */
export interface ForeignKeyInfo {
  readonly name: string;
  readonly table: string;
  readonly columns: readonly string[];
  readonly refTable: string;
  readonly refColumns: readonly string[];
}

/**
 * A UNIQUE constraint or unique index (not the primary key).
 *
 * @example
 * const u: UniqueInfo = { name: 'players_name_key', columns: ['name'] };
 */
export interface UniqueInfo {
  readonly name: string;
  readonly columns: readonly string[];
}

/**
 * One table: its columns in order, its primary key, unique constraints and foreign keys.
 *
 * @example
 * const t = schema.tables.find((t) => t.name === 'guild_members')!;
 * t.primaryKey; // ['guild_id', 'player_id']
 */
export interface TableInfo {
  readonly name: string;
  readonly columns: readonly ColumnInfo[];
  /** Empty when the table has none. */
  readonly primaryKey: readonly string[];
  readonly uniques: readonly UniqueInfo[];
  readonly foreignKeys: readonly ForeignKeyInfo[];
}

/**
 * What {@link readSchema} found in one database.
 *
 * @example
 * const schema: SchemaInfo = await readSchema(db);
 * schema.tables.map((t) => t.name); // ['guild_members', 'guilds', 'items', 'mail', 'players']
 */
export interface SchemaInfo {
  readonly dialect: 'postgres' | 'mysql' | 'sqlite';
  /** Every table, by name. The engine's own bookkeeping tables (`snowkey_merge_*`, `snowkey_rekey_*`) are left out. */
  readonly tables: readonly TableInfo[];
}

/**
 * The columns a row is identified by: the primary key, else the first unique constraint whose
 * columns are all NOT NULL; null when the table has neither.
 *
 * @example
 * rowKey(table); // ['id'] (the players table)
 */
export function rowKey(table: TableInfo): readonly string[] | null {
  if (table.primaryKey.length > 0) return table.primaryKey;
  const notNull = (c: string) => table.columns.find((x) => x.name === c)?.nullable === false;
  return table.uniques.find((u) => u.columns.every(notNull))?.columns ?? null;
}

/**
 * The column `name` of `table`.
 *
 * @example
 * column(table, 'name').maxLength; // 40 (players.name VARCHAR(40))
 */
export function column(table: TableInfo, name: string): ColumnInfo {
  const c = table.columns.find((x) => x.name === name);
  if (!c) throw new Error(`table ${table.name} has no column ${name}`);
  return c;
}
