// The merge bench's 6 tables, every kind of reference the engine handles, filled by the database itself.
import type { Dialect } from './fresh-database.js';

/** Each table's share of the rows, parents first. */
const SHARES = { accounts: 0.15, guilds: 0.015, members: 0.135, items: 0.35, mail: 0.25, trades: 0.1 };
export const TABLES = Object.keys(SHARES) as (keyof typeof SHARES)[];

export function worldSchema(dialect: Dialect): string[] {
  const id = 'id BIGINT NOT NULL PRIMARY KEY';
  const tail = dialect === 'mysql' ? ' ENGINE=InnoDB DEFAULT CHARSET=utf8mb4' : '';
  const ref = (c: string, t: string) => `${c} BIGINT NOT NULL REFERENCES ${t} (id)`;
  const tables = [
    `accounts (${id}, handle VARCHAR(24) NOT NULL UNIQUE, level INT NOT NULL)`,
    `guilds (${id}, name VARCHAR(24) NOT NULL UNIQUE, ${ref('founder_id', 'accounts')})`,
    `members (${ref('guild_id', 'guilds')}, ${ref('account_id', 'accounts')}, role VARCHAR(10) NOT NULL, PRIMARY KEY (guild_id, account_id))`,
    `items (${id}, ${ref('owner_id', 'accounts')}, kind VARCHAR(16) NOT NULL, qty INT NOT NULL)`,
    `mail (${id}, ${ref('sender_id', 'accounts')}, reply_to BIGINT REFERENCES mail (id), item_id BIGINT REFERENCES items (id), subject VARCHAR(40) NOT NULL)`,
    `trades (${id}, ${ref('item_id', 'items')}, price INT NOT NULL)`,
  ];
  // MySQL indexes referencing columns by itself; PostgreSQL and SQLite need them for the checks.
  const indexes =
    'members.account_id items.owner_id mail.sender_id mail.reply_to mail.item_id trades.item_id';
  const create = dialect === 'mysql' ? [] : indexes.split(' ').map((i) => i.split('.'));
  return [
    ...tables.map((t) => `CREATE TABLE ${t}${tail}`),
    ...create.map(([t, c]) => `CREATE INDEX ${t}_${c}_idx ON ${t} (${c})`),
  ];
}

/** Fills a shard of `rows` rows: keys from `base + 1`, one handle in 100 shared across shards. */
export function fillStatements(dialect: Dialect, rows: number, base: bigint, shard: string): string[] {
  const n = Object.fromEntries(
    TABLES.map((t) => [t, Math.max(1, Math.round(rows * SHARES[t]))]),
  ) as typeof SHARES;
  n.members = Math.min(n.members, n.accounts);
  const cat = (...parts: string[]) =>
    dialect === 'mysql' ? `CONCAT(${parts.join(', ')})` : parts.join(' || ');
  const s = (e: string) =>
    dialect === 'postgres' ? `(${e})::text` : `CAST(${e} AS ${dialect === 'mysql' ? 'CHAR' : 'TEXT'})`;
  const from = (count: number) =>
    dialect === 'postgres'
      ? `FROM generate_series(1::bigint, ${count}) AS g(i)`
      : dialect === 'mysql'
        ? `FROM (SELECT seq AS i FROM seq_1_to_${count}) g`
        : `FROM (WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${count}) SELECT i FROM c) g`;
  const k = (e: string) => `(${base} + ${e})`;
  const pick = (m: number) => k(`1 + ((i * 7919) % ${m})`);
  return [
    `INSERT INTO accounts (id, handle, level) SELECT ${k('i')}, CASE WHEN i % 100 = 0 THEN ${cat("'p'", s('i'))} ELSE ${cat(`'${shard}p'`, s('i'))} END, i % 60 ${from(n.accounts)}`,
    `INSERT INTO guilds (id, name, founder_id) SELECT ${k('i')}, ${cat(`'${shard}g'`, s('i'))}, ${pick(n.accounts)} ${from(n.guilds)}`,
    `INSERT INTO members (guild_id, account_id, role) SELECT ${k(`1 + (i % ${n.guilds})`)}, ${k('i')}, CASE WHEN i % 9 = 0 THEN 'officer' ELSE 'member' END ${from(n.members)}`,
    `INSERT INTO items (id, owner_id, kind, qty) SELECT ${k('i')}, ${pick(n.accounts)}, ${cat("'kind'", s('i % 12'))}, 1 + (i % 20) ${from(n.items)}`,
    `INSERT INTO mail (id, sender_id, reply_to, item_id, subject) SELECT ${k('i')}, ${pick(n.accounts)}, CASE WHEN i > 1 AND i % 4 = 0 THEN ${k('i - 1')} END, CASE WHEN i % 5 = 0 THEN ${pick(n.items)} END, ${cat("'subject '", s('i % 50'))} ${from(n.mail)}`,
    `INSERT INTO trades (id, item_id, price) SELECT ${k('i')}, ${pick(n.items)}, 10 + (i % 90) ${from(n.trades)}`,
  ];
}
