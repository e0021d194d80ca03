import type { Dialect, TestDatabase } from '@snowkey/test-harness';

/** A table name and a column name that need quoting on every dialect, and look like an injection. */
export const ODD_TABLE = 'odd "tbl`; DROP TABLE players; --';
export const ODD_COLUMN = 'we"ird `col';

/** Quotes an identifier for the test's own raw SQL, independently of Knex. */
export function quoteIdent(dialect: Dialect, name: string): string {
  return dialect === 'mysql' ? `\`${name.replace(/`/g, '``')}\`` : `"${name.replace(/"/g, '""')}"`;
}

/** The tables the Knex tests write to: players (one id column), items (two), and the odd one. */
export async function createTables(db: TestDatabase): Promise<void> {
  const q = (name: string) => quoteIdent(db.dialect, name);
  await db.query(
    'CREATE TABLE players (id BIGINT PRIMARY KEY, name VARCHAR(100) NOT NULL UNIQUE, qty INT NOT NULL)',
  );
  await db.query('CREATE TABLE items (id BIGINT PRIMARY KEY, serial_no BIGINT NOT NULL, label VARCHAR(100))');
  await db.query(`CREATE TABLE ${q(ODD_TABLE)} (${q(ODD_COLUMN)} BIGINT PRIMARY KEY, note VARCHAR(100))`);
}

/** Empties the tables between tests. */
export async function clearTables(db: TestDatabase): Promise<void> {
  for (const table of ['players', 'items', ODD_TABLE])
    await db.query(`DELETE FROM ${quoteIdent(db.dialect, table)}`);
}

/** A generator that hands out the given ids in order, for ids at the edges of BIGINT. */
export function fixedIds(...ids: bigint[]) {
  const queue = [...ids];
  return {
    nextId(): bigint {
      const id = queue.shift();
      if (id === undefined) throw new Error('fixedIds: out of ids');
      return id;
    },
  };
}
