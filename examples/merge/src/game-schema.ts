/**
 * How a column is stored and read back. `id` and `ref` are BIGINT keys, read as exact bigint;
 * `millis` is a BIGINT of ms since 1970, read as a number (it stays far below 2^53).
 */
export type ColumnKind = 'id' | 'ref' | 'int' | 'millis' | 'text';

/** One column of the game schema. */
export interface ColumnSpec {
  readonly name: string;
  readonly kind: ColumnKind;
  /** VARCHAR length for `text`. */
  readonly length?: number;
  readonly nullable?: boolean;
  /** For `ref`: the table whose `id` it points at (a real FOREIGN KEY). */
  readonly references?: string;
  readonly unique?: boolean;
}

/** One table of the game schema. Every table's key is `id`. */
export interface TableSpec {
  readonly name: string;
  readonly columns: readonly ColumnSpec[];
  /** The UNIQUE display name a merge renames on a clash (`Aria` -> `Aria.S2`). */
  readonly nameColumn?: string;
}

const id: ColumnSpec = { name: 'id', kind: 'id' };

/**
 * The game: players and guilds with unique names, guild membership, items owned by players,
 * mail between players (optionally carrying an item). Listed parents first, the order a merge
 * copies them in. Every relation is a real FOREIGN KEY.
 *
 * @example
 * GAME_TABLES.map((t) => t.name); // ['players', 'guilds', 'guild_members', 'items', 'mail']
 */
export const GAME_TABLES: readonly TableSpec[] = [
  {
    name: 'players',
    nameColumn: 'name',
    columns: [
      id,
      { name: 'name', kind: 'text', length: 40, unique: true },
      // The server the account was created on; a snowflake id carries it too.
      { name: 'home_server', kind: 'int' },
      { name: 'level', kind: 'int' },
      { name: 'created_at', kind: 'millis' },
    ],
  },
  {
    name: 'guilds',
    nameColumn: 'name',
    columns: [
      id,
      { name: 'name', kind: 'text', length: 40, unique: true },
      { name: 'leader_id', kind: 'ref', references: 'players' },
      { name: 'created_at', kind: 'millis' },
    ],
  },
  {
    name: 'guild_members',
    columns: [
      id,
      { name: 'guild_id', kind: 'ref', references: 'guilds' },
      { name: 'player_id', kind: 'ref', references: 'players' },
      { name: 'role', kind: 'text', length: 16 },
      { name: 'joined_at', kind: 'millis' },
    ],
  },
  {
    name: 'items',
    columns: [
      id,
      { name: 'owner_id', kind: 'ref', references: 'players' },
      { name: 'kind', kind: 'text', length: 32 },
      { name: 'qty', kind: 'int' },
      { name: 'created_at', kind: 'millis' },
    ],
  },
  {
    name: 'mail',
    columns: [
      id,
      { name: 'sender_id', kind: 'ref', references: 'players' },
      { name: 'recipient_id', kind: 'ref', references: 'players' },
      { name: 'item_id', kind: 'ref', references: 'items', nullable: true },
      { name: 'subject', kind: 'text', length: 80 },
      { name: 'sent_at', kind: 'millis' },
    ],
  },
];

/** The name of a game table. */
export type GameTable = 'players' | 'guilds' | 'guild_members' | 'items' | 'mail';

/**
 * The spec of table `name`.
 *
 * @example
 * tableSpec('mail').columns.filter((c) => c.kind === 'ref').map((c) => c.name); // ['sender_id', 'recipient_id', 'item_id']
 */
export function tableSpec(name: string): TableSpec {
  const spec = GAME_TABLES.find((t) => t.name === name);
  if (!spec)
    throw new Error(`no game table "${name}" (tables: ${GAME_TABLES.map((t) => t.name).join(', ')})`);
  return spec;
}

/**
 * Every foreign key of the schema as `{ table, column, references, nullable }`.
 *
 * @example
 * foreignKeys()[0]; // { table: 'guilds', column: 'leader_id', references: 'players', nullable: false }
 */
export function foreignKeys(): { table: string; column: string; references: string; nullable: boolean }[] {
  return GAME_TABLES.flatMap((t) =>
    t.columns
      .filter((c) => c.kind === 'ref')
      .map((c) => ({ table: t.name, column: c.name, references: c.references!, nullable: !!c.nullable })),
  );
}
