import type { TestDatabase } from '@snowkey/test-harness';

/** The ids of the `sk_item` rows named `name`, as the database holds them (decimal strings), by raw SQL. */
export async function itemIds(db: TestDatabase, name: string): Promise<string[]> {
  return (await db.query<{ id: string }>('SELECT id FROM sk_item WHERE name = ?', [name])).map((r) => r.id);
}

/** `[name, id]` of every `sk_item` row whose name starts with `prefix`, by name, by raw SQL. */
export async function itemIdsLike(db: TestDatabase, prefix: string): Promise<string[][]> {
  const rows = await db.query<{ id: string; name: string }>(
    'SELECT id, name FROM sk_item WHERE name LIKE ? ORDER BY name',
    [`${prefix}%`],
  );
  return rows.map((r) => [r.name, r.id]);
}
