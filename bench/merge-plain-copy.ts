// The merge benchmark's baseline: the same rows copied by each database's fastest route, no snowkey code.
import { pipeline } from 'node:stream/promises';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import type { Dialect, FreshDatabase } from './fresh-database.js';
import { TABLES } from './merge-world.js';

type BenchDb = Pick<FreshDatabase, 'url' | 'name'>;

/** Table `t` of the shard at `position`, the shared handles suffixed as a merge renames them. */
function select(dialect: Dialect, t: string, from: string, position: number): string {
  if (t !== 'accounts' || position === 0) return `SELECT * FROM ${from}`;
  const suffixed =
    dialect === 'mysql' ? `CONCAT(handle, '.S${position + 1}')` : `handle || '.S${position + 1}'`;
  return `SELECT id, CASE WHEN handle LIKE 'p%' THEN ${suffixed} ELSE handle END, level FROM ${from}`;
}

/** Every table of every shard into `target`, parents first, keys checked: ATTACH, COPY or cross-database INSERT. */
export async function plainCopy(
  dialect: Dialect,
  shards: readonly BenchDb[],
  target: BenchDb,
): Promise<void> {
  if (dialect === 'sqlite') {
    const db = new Database(target.name);
    db.pragma('foreign_keys = ON');
    try {
      for (const [i, s] of shards.entries())
        db.exec(`ATTACH DATABASE '${s.name.replaceAll("'", "''")}' AS s${i}`);
      for (const t of TABLES) {
        for (const [i] of shards.entries())
          db.transaction(() => db.exec(`INSERT INTO main.${t} ${select(dialect, t, `s${i}.${t}`, i)}`))();
      }
    } finally {
      db.close();
    }
    return;
  }
  if (dialect === 'postgres') {
    const into = new pg.Client({ connectionString: target.url });
    await into.connect();
    try {
      for (const t of TABLES) {
        for (const [i, s] of shards.entries()) {
          const from = new pg.Client({ connectionString: s.url });
          await from.connect();
          try {
            await pipeline(
              from.query(copyTo(`COPY (${select(dialect, t, t, i)}) TO STDOUT`)),
              into.query(copyFrom(`COPY ${t} FROM STDIN`)),
            );
          } finally {
            await from.end();
          }
        }
      }
    } finally {
      await into.end();
    }
    return;
  }
  const c = await mysql.createConnection({ uri: target.url });
  try {
    for (const t of TABLES) {
      for (const [i, s] of shards.entries()) {
        await c.query(`INSERT INTO \`${target.name}\`.${t} ${select(dialect, t, `\`${s.name}\`.${t}`, i)}`);
      }
    }
  } finally {
    await c.end();
  }
}
