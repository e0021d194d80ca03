// The driver objects behind a MergeDatabase or a MergeSession, for the bulk routes that a plain
// statement cannot take: COPY streams on PostgreSQL, ATTACH on SQLite, reads across databases of
// one MariaDB/MySQL server. A database built by hand has none, and the engine then moves rows with
// multi-row INSERTs.

/** What the engine may use of a driver, per kind. */
export type DriverConnection =
  | {
      readonly kind: 'postgres';
      readonly database: string;
      /** A pg Pool (on a database) or PoolClient (on a session). */
      readonly pool?: unknown;
      readonly client?: unknown;
    }
  | {
      readonly kind: 'mysql';
      readonly database: string;
      readonly pool?: unknown;
      readonly connection?: unknown;
    }
  | {
      readonly kind: 'sqlite';
      /** The better-sqlite3 Database. */
      readonly db: unknown;
      readonly file: string;
    };

const connections = new WeakMap<object, DriverConnection>();

/** Remembers the driver objects behind `owner` (a MergeDatabase or a MergeSession). */
export function registerConnection(owner: object, connection: DriverConnection): void {
  connections.set(owner, connection);
}

/** The driver objects behind `owner`, or undefined for a database built by hand. */
export function connectionOf(owner: object): DriverConnection | undefined {
  return connections.get(owner);
}
