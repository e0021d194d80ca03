import { BOOKKEEPING_TABLES, hasTable, readProgress } from './bookkeeping.js';
import type { MergeSqlClient } from './database.js';
import { deferredColumns } from './deferred-keys.js';
import { MergeSchemaError } from './errors.js';
import { type MergeInputs, setUpMerge } from './merge-setup.js';
import { WorkTables } from './merge-tables.js';
import { type RekeyOptions, setUpRekey } from './rekey-setup.js';
import { asText, keyText, quote, stringLiteral } from './sql.js';
import { castAs, stageForVerification } from './verification.js';

const T = BOOKKEEPING_TABLES;

/** Every table of the job's own in `db` (`snowkey_merge_*` or `snowkey_rekey_*`). */
async function ownTables(db: MergeSqlClient, prefix: string): Promise<string[]> {
  const like = `${prefix.replaceAll('_', '\\_')}%`;
  const sql =
    db.dialect === 'postgres'
      ? `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name LIKE ?`
      : db.dialect === 'mysql'
        ? `SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME LIKE ?`
        : `SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE ? ESCAPE '\\'`;
  return (await db.query<{ name: string }>(sql, [like])).map((r) => String(r.name));
}

/**
 * Undoes a merge on its target, finished or not, so it can start again with other inputs; rows the
 * target held before stay. Resolves to the rows deleted.
 *
 * @example
 * await resetMerge({ sources, target }); // then runMerge with the policies you want
 */
export async function resetMerge(inputs: MergeInputs): Promise<number> {
  const { target } = inputs;
  if (!(await hasTable(target, T.mergeInputs))) {
    throw new MergeSchemaError([
      'the target holds no merge (no snowkey_merge_inputs table): nothing to reset',
    ]);
  }
  const setup = await setUpMerge({ ...inputs, onConflict: undefined, acceptDrift: ['*'] });
  const wrote = (await readProgress(target, 'merge')).some((p) => p.phase === 'copy' || p.phase === 'link');
  let deleted = 0;
  if (wrote) {
    deleted = await target.session(async (db) => {
      const d = db.dialect;
      const q = (c: string) => quote(d, c);
      const names = new WorkTables('snowkey_verify_', true);
      let n = 0;
      for (const name of [...setup.order].reverse()) {
        const info = setup.tables.get(name)!;
        const stage = await stageForVerification(
          db,
          names,
          info.number,
          name,
          info.staged,
          info.key,
          inputs.sources.flatMap((s, position) =>
            info.columns.has(position)
              ? [
                  {
                    position,
                    db: s.db,
                    columns: info.columns.get(position)!,
                    keyColumns: info.sourceKeys.get(position)!,
                  },
                ]
              : [],
          ),
        );
        const joins: string[] = [];
        const value = new Map<string, string>();
        for (const [j, fk] of info.foreignKeys.entries()) {
          const parent = setup.tables.get(fk.refTable);
          if (parent?.key.length !== 1 || fk.columns.length !== 1 || fk.refColumns[0] !== parent.key[0])
            continue;
          const c = fk.columns[0]!;
          if (!info.key.includes(c)) continue;
          joins.push(
            `LEFT JOIN ${T.skips} r${j} ON r${j}.table_name = ${stringLiteral(d, fk.refTable)} AND r${j}.source_position = a.snowkey_src AND r${j}.row_key = ${asText(d, `a.${q(c)}`)}`,
          );
          const col = info.table.columns.find((x) => x.name === c)!;
          value.set(
            c,
            `CASE WHEN r${j}.row_key IS NULL THEN a.${q(c)} ELSE ${castAs(d, `r${j}.target_key`, col)} END`,
          );
        }
        const raw = keyText(
          d,
          info.key.map((k) => `a.${q(k)}`),
        );
        const select = `SELECT ${info.key.map((k) => value.get(k) ?? `a.${q(k)}`).join(', ')} FROM ${q(stage)} a ${joins.join(' ')} LEFT JOIN ${T.collisions} cl ON cl.table_name = ${stringLiteral(d, name)} AND cl.source_position = a.snowkey_src AND cl.row_key = ${raw} LEFT JOIN ${T.skips} sk ON sk.table_name = ${stringLiteral(d, name)} AND sk.source_position = a.snowkey_src AND sk.row_key = ${raw} WHERE cl.row_key IS NULL AND sk.row_key IS NULL`;
        const keyList = info.key.length === 1 ? q(info.key[0]!) : `(${info.key.map(q).join(', ')})`;
        const deferred = deferredColumns(info.deferred);
        if (deferred.length > 0) {
          await db.execute(
            `UPDATE ${q(name)} SET ${deferred.map((c) => `${q(c)} = NULL`).join(', ')} WHERE ${keyList} IN (SELECT * FROM (${select}) x)`,
          );
        }
        n += await db.execute(`DELETE FROM ${q(name)} WHERE ${keyList} IN (SELECT * FROM (${select}) x)`);
        await names.drop(db, stage);
      }
      return n;
    });
  }
  for (const t of await ownTables(target, 'snowkey_merge_'))
    await target.execute(`DROP TABLE IF EXISTS ${quote(target.dialect, t)}`);
  return deleted;
}

/**
 * Undoes a rekey on its target, finished or not; resolves to the rows deleted.
 *
 * @example
 * await resetRekey({ source, target, layout: layouts.gameServer, node: { serverId: 3 } });
 */
export async function resetRekey(options: RekeyOptions): Promise<number> {
  const { target } = options;
  if (!(await hasTable(target, T.rekeyInputs))) {
    throw new MergeSchemaError([
      'the target holds no rekey (no snowkey_rekey_inputs table): nothing to reset',
    ]);
  }
  const setup = await setUpRekey(options);
  const q = (c: string) => quote(target.dialect, c);
  let deleted = 0;
  await target.transaction(async (tx) => {
    for (const name of [...setup.order].reverse()) {
      const info = setup.tables.get(name)!;
      const deferred = deferredColumns(info.deferred);
      if (deferred.length > 0)
        await tx.execute(`UPDATE ${q(name)} SET ${deferred.map((c) => `${q(c)} = NULL`).join(', ')}`);
      const order =
        tx.dialect === 'mysql' ? ` ORDER BY ${info.key.map((k) => `${q(k)} DESC`).join(', ')}` : '';
      deleted += await tx.execute(`DELETE FROM ${q(name)}${order}`);
    }
  });
  for (const t of await ownTables(target, 'snowkey_rekey_'))
    await target.execute(`DROP TABLE IF EXISTS ${q(t)}`);
  return deleted;
}
