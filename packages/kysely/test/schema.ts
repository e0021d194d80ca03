import type { TestDatabase } from '@snowkey/test-harness';
import type { ColumnType } from 'kysely';

/** A snowflake key: read as bigint, optional on insert (the plugin fills it), never updated. */
export type Key = ColumnType<bigint, bigint | undefined, never>;

/** The tables the Kysely tests write to, as a Kysely schema. */
export interface Game {
  players: { id: Key; name: string; level: ColumnType<number, number | undefined, number> };
  items: { id: Key; serial_no: Key; label: string };
  staging: { id: bigint; name: string };
  tokens: { id: Key; uses: ColumnType<number, number | undefined, number> };
  audit: { seq: ColumnType<number, never, never>; note: string };
}

const AUTO: Record<TestDatabase['dialect'], string> = {
  postgres: 'seq SERIAL PRIMARY KEY',
  mysql: 'seq INT AUTO_INCREMENT PRIMARY KEY',
  sqlite: 'seq INTEGER PRIMARY KEY AUTOINCREMENT',
};

/**
 * players (one id column, a unique name), items (two id columns), staging (rows to copy with
 * their keys), tokens (every other column has a default), audit (not a snowflake table).
 */
export async function createTables(db: TestDatabase): Promise<void> {
  await db.query(
    'CREATE TABLE players (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(100) NOT NULL UNIQUE, level INT NOT NULL DEFAULT 1)',
  );
  await db.query(
    'CREATE TABLE items (id BIGINT NOT NULL PRIMARY KEY, serial_no BIGINT NOT NULL UNIQUE, label VARCHAR(100) NOT NULL)',
  );
  await db.query('CREATE TABLE staging (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(100) NOT NULL)');
  await db.query('CREATE TABLE tokens (id BIGINT NOT NULL PRIMARY KEY, uses INT NOT NULL DEFAULT 0)');
  await db.query(`CREATE TABLE audit (${AUTO[db.dialect]}, note VARCHAR(100) NOT NULL)`);
}

/** Empties the tables between tests. */
export async function clearTables(db: TestDatabase): Promise<void> {
  for (const table of ['players', 'items', 'staging', 'tokens', 'audit'])
    await db.query(`DELETE FROM ${table}`);
}
