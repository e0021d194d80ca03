import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type { MergeDatabase, MergeSession, MergeSqlClient, SqlValue } from './database.js';
import { connectionOf } from './driver-connection.js';
import type { ColumnInfo } from './schema.js';
import { after, insertRows, quote, rowsPerStatement, selectPage, stringLiteral } from './sql.js';
import { refreshStatistics } from './stage-table.js';
import { decodeKey, encodeKey } from './values.js';

/** One source table to read into a staging table of the target. */
export interface StageLoad {
  readonly stage: string;
  readonly table: string;
  /** The source's position: what `snowkey_src` holds. */
  readonly position: number;
  readonly source: MergeDatabase;
  /** Columns read from the source, staged under the same names. */
  readonly columns: readonly string[];
  readonly key: readonly string[];
  /** The source's key columns (their types spell a resumed PostgreSQL COPY's bounds). */
  readonly keyColumns: readonly ColumnInfo[];
}

/** A committed chunk: how far the read got (an opaque key text), its rows, and whether it was the last. */
export interface LoadedChunk {
  readonly lastKey: string | null;
  readonly rows: number;
  readonly done: boolean;
}

/** How the rows travel: chosen by the drivers of both ends. */
export type Route = 'attach' | 'same-server' | 'copy' | 'rows';

/** Thrown inside a chunk loop to stop it cleanly (stopAfterBatches); never leaves this package. */
export class StopLoading extends Error {}

/**
 * Reads `load`'s table from its source into the staging table in chunks of `chunkRows` rows, in
 * key order, from after `resumeAfter`. The staged rows are numbered 1, 2, ... in `snowkey_seq`
 * without gaps (a rekey numbers its new ids by it). Each chunk is one transaction on `target` that
 * also runs `commit` (the progress row).
 */
export async function loadStage(
  target: MergeSession,
  load: StageLoad,
  chunkRows: number,
  resumeAfter: string | null,
  commit: (tx: MergeSqlClient, chunk: LoadedChunk) => Promise<void>,
  next: (chunk: LoadedChunk) => boolean,
): Promise<{ stopped: boolean }> {
  const route = await routeOf(target, load.source);
  try {
    if (route === 'copy') await copyRoute(target, load, chunkRows, resumeAfter, commit, next);
    else if (route === 'rows') await rowsRoute(target, load, chunkRows, resumeAfter, commit, next);
    else await selectRoute(target, load, route, chunkRows, resumeAfter, commit, next);
    await refreshStatistics(target, [load.stage]);
    return { stopped: false };
  } catch (err) {
    if (err instanceof StopLoading) return { stopped: true };
    throw err;
  }
}

const sameServer = new WeakMap<object, WeakMap<object, boolean>>();

/** The route between `source` and the target session. */
export async function routeOf(target: MergeSession, source: MergeDatabase): Promise<Route> {
  const t = connectionOf(target);
  const s = connectionOf(source);
  if (!t || !s || t.kind !== s.kind) return 'rows';
  if (t.kind === 'sqlite') return 'attach';
  if (t.kind === 'postgres') return 'copy';
  const known = sameServer.get(target)?.get(source);
  if (known !== undefined) return known ? 'same-server' : 'rows';
  // Same server when the target can see the source's own connection, and read its database.
  const same = await source.session(async (ss) => {
    const [me] = await ss.query<{ id: unknown }>('SELECT CONNECTION_ID() AS id');
    const [seen] = await target.query<{ n: unknown }>(
      'SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE ID = ?',
      [me!.id as SqlValue],
    );
    if (Number(seen?.n ?? 0) !== 1) return false;
    try {
      await target.query(`SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? LIMIT 1`, [
        source.name,
      ]);
      return true;
    } catch {
      return false;
    }
  });
  if (!sameServer.has(target)) sameServer.set(target, new WeakMap());
  sameServer.get(target)!.set(source, same);
  return same ? 'same-server' : 'rows';
}

/** The schema a source table is read through on the target's connection. */
function sourceSchema(load: StageLoad, route: Route): string {
  if (route === 'attach') return `snowkey_src${load.position}`;
  return quote('mysql', load.source.name);
}

async function attachSource(target: MergeSession, load: StageLoad): Promise<void> {
  const s = connectionOf(load.source);
  if (s?.kind !== 'sqlite') return;
  const alias = `snowkey_src${load.position}`;
  const attached = await target.query<{ name: string; file: string }>('PRAGMA database_list');
  if (attached.some((a) => a.name === alias)) return;
  await target.execute(`ATTACH DATABASE ${stringLiteral('sqlite', s.file)} AS ${alias}`);
}

/** ATTACHed SQLite files, or databases of one MySQL server: the target reads the source itself. */
async function selectRoute(
  target: MergeSession,
  load: StageLoad,
  route: Route,
  chunkRows: number,
  resumeAfter: string | null,
  commit: (tx: MergeSqlClient, chunk: LoadedChunk) => Promise<void>,
  next: (chunk: LoadedChunk) => boolean,
): Promise<void> {
  const d = target.dialect;
  const q = (c: string) => quote(d, c);
  if (route === 'attach') await attachSource(target, load);
  const from = `${sourceSchema(load, route)}.${q(load.table)}`;
  const cols = load.columns.map(q).join(', ');
  let last = resumeAfter === null ? null : decodeKey(resumeAfter);
  for (;;) {
    const where = after(d, load.key, last);
    const order = load.key.map(q).join(', ');
    const chunk = await target.transaction(async (tx) => {
      // SQLite numbers an INTEGER PRIMARY KEY one past the largest already (2.5x cheaper than a
      // window function); MariaDB's AUTO_INCREMENT skips values between bulk INSERTs.
      const rows = await tx.execute(
        route === 'attach'
          ? `INSERT INTO ${q(load.stage)} (snowkey_src, ${cols}) SELECT ${load.position}, ${cols} FROM ${from} WHERE ${where.sql} ORDER BY ${order} LIMIT ${chunkRows}`
          : `INSERT INTO ${q(load.stage)} (snowkey_seq, snowkey_src, ${cols}) SELECT ${await lastSeq(tx, load.stage)} + ROW_NUMBER() OVER (ORDER BY ${order}), ${load.position}, ${cols} FROM (SELECT ${cols} FROM ${from} WHERE ${where.sql} ORDER BY ${order} LIMIT ${chunkRows}) s ORDER BY ${order}`,
        where.params,
      );
      let lastKey = last === null ? null : encodeKey(last);
      if (rows > 0) {
        const [end] = await tx.query<Record<string, unknown>>(
          `SELECT ${load.key.map(q).join(', ')} FROM ${q(load.stage)} ORDER BY snowkey_seq DESC LIMIT 1`,
        );
        lastKey = encodeKey(load.key.map((c) => end![c]));
      }
      const c: LoadedChunk = { lastKey, rows, done: rows < chunkRows };
      await commit(tx, c);
      return c;
    });
    if (chunk.done) {
      next(chunk);
      return;
    }
    last = decodeKey(chunk.lastKey!);
    if (!next(chunk)) throw new StopLoading();
  }
}

/** Any two databases: pages of rows through the client, written by multi-row INSERTs. */
async function rowsRoute(
  target: MergeSession,
  load: StageLoad,
  chunkRows: number,
  resumeAfter: string | null,
  commit: (tx: MergeSqlClient, chunk: LoadedChunk) => Promise<void>,
  next: (chunk: LoadedChunk) => boolean,
): Promise<void> {
  const page = Math.min(chunkRows, rowsPerStatement(load.columns.length + 1), 5000);
  let last = resumeAfter === null ? null : decodeKey(resumeAfter);
  for (;;) {
    const chunk = await target.transaction(async (tx) => {
      let rows = 0;
      let done = false;
      let end = last;
      let seq = await lastSeq(tx, load.stage);
      while (rows < chunkRows) {
        const want = Math.min(page, chunkRows - rows);
        const p = selectPage(load.source.dialect, load.table, load.columns, load.key, end, want);
        const read = await load.source.query<Record<string, unknown>>(p.sql, p.params);
        if (read.length > 0) {
          const values = read.map((r) => [
            ++seq,
            load.position,
            ...load.columns.map((c) => (r[c] ?? null) as SqlValue),
          ]);
          const ins = insertRows(
            tx.dialect,
            load.stage,
            ['snowkey_seq', 'snowkey_src', ...load.columns],
            values,
          );
          await tx.execute(ins.sql, ins.params);
          const lastRow = read[read.length - 1]!;
          end = load.key.map((c) => lastRow[c] as SqlValue);
        }
        rows += read.length;
        if (read.length < want) {
          done = true;
          break;
        }
      }
      const c: LoadedChunk = { lastKey: end === null ? null : encodeKey(end), rows, done };
      await commit(tx, c);
      return c;
    });
    if (chunk.done) {
      next(chunk);
      return;
    }
    last = decodeKey(chunk.lastKey!);
    if (!next(chunk)) throw new StopLoading();
  }
}

interface PgClient {
  query(text: string): Promise<unknown>;
  query<S extends object>(stream: S): S;
}

/**
 * Two PostgreSQL databases: one COPY (SELECT ... ORDER BY key) TO STDOUT of the source piped into
 * COPY FROM STDIN of the staging table, cut into chunks at line ends; each chunk's COPY commits with
 * its progress row, whose key is the last line's key fields as PostgreSQL printed them.
 */
async function copyRoute(
  target: MergeSession,
  load: StageLoad,
  chunkRows: number,
  resumeAfter: string | null,
  commit: (tx: MergeSqlClient, chunk: LoadedChunk) => Promise<void>,
  next: (chunk: LoadedChunk) => boolean,
): Promise<void> {
  const { from: copyFrom, to: copyTo } = await import('pg-copy-streams');
  const q = (c: string) => quote('postgres', c);
  const t = connectionOf(target);
  if (t?.kind !== 'postgres' || !t.client) throw new Error('a PostgreSQL session has no client');
  const into = t.client as PgClient;
  const keyAt = load.key.map((k) => 2 + load.columns.indexOf(k));
  const resumed = resumeAfter === null ? null : (JSON.parse(resumeAfter) as string[]);
  const bound =
    resumed === null
      ? '1 = 1'
      : afterLiterals(
          load.key.map(q),
          resumed.map((text, i) => `${stringLiteral('postgres', text)}::${load.keyColumns[i]!.sqlType}`),
        );
  const order = load.key.map(q).join(', ');
  const seq = await lastSeq(target, load.stage);
  const select = `SELECT ${seq} + ROW_NUMBER() OVER (ORDER BY ${order}), ${load.position}, ${load.columns.map(q).join(', ')} FROM ${q(load.table)} WHERE ${bound} ORDER BY ${order}`;
  const copyIn = `COPY ${q(load.stage)} (snowkey_seq, snowkey_src, ${load.columns.map(q).join(', ')}) FROM STDIN`;
  await load.source.session(async (ss) => {
    const s = connectionOf(ss);
    if (s?.kind !== 'postgres' || !s.client) throw new Error('a PostgreSQL session has no client');
    const out = (s.client as PgClient).query(copyTo(`COPY (${select}) TO STDOUT`)) as NodeJS.ReadableStream &
      AsyncIterable<Buffer>;
    let ws: NodeJS.WritableStream | null = null;
    let lines = 0;
    let carry: Buffer = Buffer.alloc(0);
    let lastLine: Buffer | null = null;
    const begin = async () => {
      await into.query('BEGIN');
      ws = into.query(copyFrom(copyIn)) as NodeJS.WritableStream;
      lines = 0;
    };
    const write = async (b: Buffer) => {
      if (b.length > 0 && !ws!.write(b)) await once(ws! as NodeJS.EventEmitter, 'drain');
    };
    const end = async (done: boolean) => {
      ws!.end();
      await finished(ws! as NodeJS.WritableStream);
      const fields = lastLine === null ? null : lastLine.toString('utf8').split('\t');
      const chunk: LoadedChunk = {
        lastKey:
          fields === null ? resumeAfter : JSON.stringify(keyAt.map((i) => unescapeCopyText(fields[i]!))),
        rows: lines,
        done,
      };
      await commit(target, chunk);
      await into.query('COMMIT');
      resumeAfter = chunk.lastKey;
      return chunk;
    };
    try {
      await begin();
      for await (const buf of out) {
        let start = 0;
        while (start < buf.length) {
          let i = start;
          let split = -1;
          while (lines < chunkRows) {
            const nl = buf.indexOf(10, i);
            if (nl < 0) break;
            lines++;
            const prev = nl === 0 ? -1 : buf.lastIndexOf(10, nl - 1);
            lastLine = prev >= 0 ? buf.subarray(prev + 1, nl) : Buffer.concat([carry, buf.subarray(0, nl)]);
            i = nl + 1;
            if (lines === chunkRows) split = i;
          }
          if (split < 0) {
            await write(buf.subarray(start));
            break;
          }
          await write(buf.subarray(start, split));
          const chunk = await end(false);
          if (!next(chunk)) throw new StopLoading();
          await begin();
          start = split;
        }
        const nl = buf.lastIndexOf(10);
        carry = nl < 0 ? Buffer.concat([carry, buf]) : Buffer.from(buf.subarray(nl + 1));
      }
      next(await end(true));
    } catch (err) {
      if (ws) (ws as unknown as { destroy?(e?: Error): void }).destroy?.();
      await into.query('ROLLBACK').catch(() => {});
      (out as unknown as { destroy?(): void }).destroy?.();
      throw err;
    }
  });
}

/** The staging number of the last row staged in `stage` (0 when it holds none). */
async function lastSeq(db: MergeSqlClient, stage: string): Promise<number> {
  const [r] = await db.query<{ n: unknown }>(
    `SELECT COALESCE(MAX(snowkey_seq), 0) AS n FROM ${quote(db.dialect, stage)}`,
  );
  return Number(r?.n ?? 0);
}

/** `key > bound` for literal bounds, spelled out per column. */
function afterLiterals(cols: readonly string[], literals: readonly string[]): string {
  const ors: string[] = [];
  for (let i = 0; i < cols.length; i++) {
    const parts = cols.slice(0, i).map((c, j) => `${c} = ${literals[j]}`);
    parts.push(`${cols[i]} > ${literals[i]}`);
    ors.push(`(${parts.join(' AND ')})`);
  }
  return `(${ors.join(' OR ')})`;
}

/** A field of PostgreSQL's COPY text format as the text it stands for. */
export function unescapeCopyText(field: string): string {
  if (!field.includes('\\')) return field;
  return field.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)/g, (_, e: string) => {
    if (e[0] === 'x') return String.fromCharCode(Number.parseInt(e.slice(1), 16));
    if (/^[0-7]/.test(e)) return String.fromCharCode(Number.parseInt(e, 8));
    const named: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };
    return named[e] ?? e;
  });
}
