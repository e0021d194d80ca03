// The merge benchmark's 6 tables, every kind of reference the engine handles, filled by the database itself.
import type { Dialect } from './fresh-database.js';

/** Share of the rows per table (sums to 1), in the order parents come first. */
const SHARES = {
  accounts: 0.15,
  guilds: 0.015,
  members: 0.135,
  items: 0.35,
  mail: 0.25,
  trades: 0.1,
} as const;

export const TABLES = Object.keys(SHARES) as (keyof typeof SHARES)[];

export function worldSchema(dialect: Dialect): string[] {
  const id = 'id BIGINT NOT NULL PRIMARY KEY';
  const tail = dialect === 'mysql' ? ' ENGINE=InnoDB DEFAULT CHARSET=utf8mb4' : '';
  const idx = (t: string, c: string) => `CREATE INDEX ${t}_${c}_idx ON ${t} (${c})`;
  return [
    `CREATE TABLE accounts (${id}, handle VARCHAR(24) NOT NULL UNIQUE, level INT NOT NULL)${tail}`,
    `CREATE TABLE guilds (${id}, name VARCHAR(24) NOT NULL UNIQUE, founder_id BIGINT NOT NULL REFERENCES accounts (id))${tail}`,
    `CREATE TABLE members (guild_id BIGINT NOT NULL REFERENCES guilds (id), account_id BIGINT NOT NULL REFERENCES accounts (id), role VARCHAR(10) NOT NULL, PRIMARY KEY (guild_id, account_id))${tail}`,
    `CREATE TABLE items (${id}, owner_id BIGINT NOT NULL REFERENCES accounts (id), kind VARCHAR(16) NOT NULL, qty INT NOT NULL)${tail}`,
    `CREATE TABLE mail (${id}, sender_id BIGINT NOT NULL REFERENCES accounts (id), reply_to BIGINT REFERENCES mail (id), item_id BIGINT REFERENCES items (id), subject VARCHAR(40) NOT NULL)${tail}`,
    `CREATE TABLE trades (${id}, item_id BIGINT NOT NULL REFERENCES items (id), price INT NOT NULL)${tail}`,
    // MySQL indexes referencing columns by itself; PostgreSQL and SQLite need them for the checks.
    ...(dialect === 'mysql'
      ? []
      : [
          idx('members', 'account_id'),
          idx('items', 'owner_id'),
          idx('mail', 'sender_id'),
          idx('mail', 'reply_to'),
          idx('mail', 'item_id'),
          idx('trades', 'item_id'),
        ]),
  ];
}

/** Rows per table for a shard of `rows` rows. */
function tableRows(rows: number): Record<keyof typeof SHARES, number> {
  const n = Object.fromEntries(TABLES.map((t) => [t, Math.max(1, Math.round(rows * SHARES[t]))])) as Record<
    keyof typeof SHARES,
    number
  >;
  n.members = Math.min(n.members, n.accounts);
  return n;
}

/** Fills a shard of `rows` rows: keys from `base + 1`, one handle in 100 shared across shards. */
export function fillStatements(dialect: Dialect, rows: number, base: bigint, shard: string): string[] {
  const n = tableRows(rows);
  const cat = (...parts: string[]) =>
    dialect === 'mysql' ? `CONCAT(${parts.join(', ')})` : parts.join(' || ');
  const from = (count: number) =>
    dialect === 'postgres'
      ? `FROM generate_series(1::bigint, ${count}) AS g(i)`
      : dialect === 'mysql'
        ? `FROM (SELECT seq AS i FROM seq_1_to_${count}) g`
        : `FROM (WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${count}) SELECT i FROM c) g`;
  const k = (e: string) => `(${base} + ${e})`;
  const pick = (m: number) => k(`1 + ((i * 7919) % ${m})`);
  const s = (e: string) =>
    dialect === 'postgres'
      ? `(${e})::text`
      : dialect === 'mysql'
        ? `CAST(${e} AS CHAR)`
        : `CAST(${e} AS TEXT)`;
  return [
    `INSERT INTO accounts (id, handle, level) SELECT ${k('i')}, CASE WHEN i % 100 = 0 THEN ${cat("'p'", s('i'))} ELSE ${cat(`'${shard}p'`, s('i'))} END, i % 60 ${from(n.accounts)}`,
    `INSERT INTO guilds (id, name, founder_id) SELECT ${k('i')}, ${cat(`'${shard}g'`, s('i'))}, ${pick(n.accounts)} ${from(n.guilds)}`,
    `INSERT INTO members (guild_id, account_id, role) SELECT ${k(`1 + (i % ${n.guilds})`)}, ${k('i')}, CASE WHEN i % 9 = 0 THEN 'officer' ELSE 'member' END ${from(n.members)}`,
    `INSERT INTO items (id, owner_id, kind, qty) SELECT ${k('i')}, ${pick(n.accounts)}, ${cat("'kind'", s('i % 12'))}, 1 + (i % 20) ${from(n.items)}`,
    `INSERT INTO mail (id, sender_id, reply_to, item_id, subject) SELECT ${k('i')}, ${pick(n.accounts)}, CASE WHEN i > 1 AND i % 4 = 0 THEN ${k('i - 1')} END, CASE WHEN i % 5 = 0 THEN ${pick(n.items)} END, ${cat("'subject '", s('i % 50'))} ${from(n.mail)}`,
    `INSERT INTO trades (id, item_id, price) SELECT ${k('i')}, ${pick(n.items)}, 10 + (i % 90) ${from(n.trades)}`,
  ];
}
