// The merge bench's baseline: the same rows copied by each database's fastest route, no snowkey code.
import { pipeline } from 'node:stream/promises';
import Database from 'better-sqlite3';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { connect, type Dialect, type FreshDatabase } from './fresh-database.js';
import { TABLES } from './merge-world.js';

/** Table `t` of the shard at `position`, the shared handles suffixed as a merge renames them. */
function select(dialect: Dialect, t: string, from: string, position: number): string {
  if (t !== 'accounts' || position === 0) return `SELECT * FROM ${from}`;
  const suffix = `'.S${position + 1}'`;
  const renamed = dialect === 'mysql' ? `CONCAT(handle, ${suffix})` : `handle || ${suffix}`;
  return `SELECT id, CASE WHEN handle LIKE 'p%' THEN ${renamed} ELSE handle END, level FROM ${from}`;
}

/** Every table of every shard into `target`, parents first, keys checked: ATTACH, COPY or cross-database INSERT. */
export async function plainCopy(dialect: Dialect, shards: readonly FreshDatabase[], target: FreshDatabase) {
  if (dialect === 'sqlite') {
    const db = new Database(target.name);
    db.pragma('foreign_keys = ON');
    for (const [i, s] of shards.entries())
      db.exec(`ATTACH DATABASE '${s.name.replaceAll("'", "''")}' AS s${i}`);
    for (const t of TABLES)
      for (const [i] of shards.entries())
        db.transaction(() => db.exec(`INSERT INTO main.${t} ${select(dialect, t, `s${i}.${t}`, i)}`))();
    db.close();
  } else if (dialect === 'postgres') {
    const into = new pg.Client({ connectionString: target.url });
    await into.connect();
    for (const t of TABLES) {
      for (const [i, s] of shards.entries()) {
        const from = new pg.Client({ connectionString: s.url });
        await from.connect();
        await pipeline(
          from.query(copyTo(`COPY (${select(dialect, t, t, i)}) TO STDOUT`)),
          into.query(copyFrom(`COPY ${t} FROM STDIN`)),
        );
        await from.end();
      }
    }
    await into.end();
  } else {
    const c = await connect(dialect, target.url);
    for (const t of TABLES)
      for (const [i, s] of shards.entries())
        await c.query(`INSERT INTO \`${target.name}\`.${t} ${select(dialect, t, `\`${s.name}\`.${t}`, i)}`);
    await c.end();
  }
}
