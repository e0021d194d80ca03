// The merge benchmark's baseline: the same rows copied from the same shards into the same kind of
// target by the fastest route each database offers, with no snowkey code in the way.
import { pipeline } from 'node:stream/promises';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { type Dialect, TABLES } from './merge-world.js';

/** A database of the benchmark: its URL, and its name on a server (or its file on SQLite). */
export interface BenchDb {
  readonly url: string;
  readonly name: string;
}

/**
 * What the copy reads of table `t` of the shard at `position`: every column as it is, except the
 * handles every shard shares, which a later shard's copy suffixes as a merge renames them (a plain
 * copy that knows the clashes beforehand, at the cost of one expression per row).
 */
function select(dialect: Dialect, t: string, from: string, position: number): string {
  if (t !== 'accounts' || position === 0) return `SELECT * FROM ${from}`;
  const suffixed =
    dialect === 'mysql' ? `CONCAT(handle, '.S${position + 1}')` : `handle || '.S${position + 1}'`;
  return `SELECT id, CASE WHEN handle LIKE 'p%' THEN ${suffixed} ELSE handle END, level FROM ${from}`;
}

/**
 * Copies every table of every shard into `target`, parents first: ATTACH and INSERT ... SELECT on
 * SQLite, COPY TO STDOUT piped into COPY FROM STDIN on PostgreSQL, INSERT ... SELECT across
 * databases of one server on MariaDB. Foreign keys and unique keys are checked, as in a merge.
 */
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
