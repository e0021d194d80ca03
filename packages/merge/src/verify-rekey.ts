import { BOOKKEEPING_TABLES, countRows, hasTable } from './bookkeeping.js';
import { WorkTables } from './merge-tables.js';
import { type RekeyOptions, setUpRekey } from './rekey-setup.js';
import { keyText, stringLiteral } from './sql.js';
import { refreshStatistics } from './stage-table.js';
import {
  countDangling,
  holds,
  quoter,
  stageForVerification,
  type TableVerification,
  type Verification,
} from './verification.js';

/**
 * Checks a rekey against its source, reading every row again: each row once under its new id
 * (decoding to the node given), its values and references equal, nothing else in the target.
 *
 * @example
 * const v = await verifyRekey({ source, target, layout: layouts.gameServer, node: { serverId: 3 } });
 * v.ok; // true
 */
export async function verifyRekey(options: RekeyOptions): Promise<Verification & { wrongNode: number }> {
  const setup = await setUpRekey(options);
  const { source, target, layout, node } = options;
  const problems = [...setup.problems];
  const map = BOOKKEEPING_TABLES.rekeyMap;
  if (!(await hasTable(target, map))) {
    problems.push('the target holds no rekey (no snowkey_rekey_map table)');
    return { ok: false, problems, tables: [], dangling: {}, wrongNode: 0 };
  }
  const examples: string[] = [];
  let wrongNode = 0;
  const tables = await target.session(async (db) => {
    const d = db.dialect;
    const q = quoter(d);
    const names = new WorkTables('snowkey_verify_', true);
    const out: TableVerification[] = [];
    await refreshStatistics(db, [map]);
    for (const name of setup.order) {
      const info = setup.tables.get(name)!;
      const stage = await stageForVerification(db, names, info.number, name, info.staged, info.key, [
        { position: 0, db: source, columns: info.columns, keyColumns: info.sourceKeys },
      ]);
      const joins: string[] = [];
      const value = new Map<string, string>();
      const own = info.rekeyed ? [{ column: info.rekeyed, refTable: name }] : [];
      [...own, ...info.refs, ...info.deferredRefs].forEach((r, i) => {
        joins.push(
          `LEFT JOIN ${map} m${i} ON m${i}.table_name = ${stringLiteral(d, r.refTable)} AND m${i}.old_id = a.${q(r.column)}`,
        );
        value.set(r.column, `CASE WHEN a.${q(r.column)} IS NULL THEN NULL ELSE m${i}.new_id END`);
      });
      const expected = (c: string) => value.get(c) ?? `a.${q(c)}`;
      const col = (c: string) => info.table.columns.find((x) => x.name === c)!;
      const found = `t.${q(info.key[0]!)} IS NOT NULL`;
      const same = info.columns.map((c) => holds(d, col(c), `t.${q(c)}`, expected(c))).join(' AND ');
      const from = `FROM ${q(stage)} a ${joins.join(' ')} LEFT JOIN ${q(name)} t ON ${info.key
        .map((k) => `t.${q(k)} = ${expected(k)}`)
        .join(' AND ')}`;
      const [r] = await db.query<Record<string, unknown>>(
        `SELECT COUNT(*) AS n, SUM(CASE WHEN NOT (${found}) THEN 1 ELSE 0 END) AS missing,
          SUM(CASE WHEN ${found} AND NOT (${same}) THEN 1 ELSE 0 END) AS different ${from}`,
      );
      const n = Number(r?.n ?? 0);
      const missing = Number(r?.missing ?? 0);
      const different = Number(r?.different ?? 0);
      if (missing + different > 0 && examples.length < 5) {
        for (const b of await db.query<Record<string, unknown>>(
          `SELECT ${keyText(
            d,
            info.key.map((k) => `a.${q(k)}`),
          )} AS k, CASE WHEN ${found} THEN 1 ELSE 0 END AS found ${from} WHERE NOT (${found}) OR NOT (${same}) LIMIT ${5 - examples.length}`,
        )) {
          examples.push(
            `${name} [${String(b.k)}] ${Number(b.found) === 1 ? 'holds other values in the target' : 'is not in the target under its new id'}`,
          );
        }
      }
      await names.drop(db, stage);
      const targetRows = await countRows(db, name);
      out.push({
        table: name,
        sourceRows: { [source.name]: n },
        targetRows,
        expectedRows: n,
        missing,
        different,
        leftOut: 0,
        misattached: 0,
      });
      if (missing > 0)
        problems.push(`${name}: ${missing} source rows are not in the target under their new id`);
      if (different > 0)
        problems.push(`${name}: ${different} source rows are in the target with other values`);
      if (targetRows !== n) problems.push(`${name}: the target holds ${targetRows} rows, the source ${n}`);
      if (info.rekeyed) {
        const wrong = layout.nodeFields
          .map(
            (f) =>
              `((new_id ${d === 'mysql' ? 'DIV' : '/'} ${2n ** BigInt(f.shift)}) % ${2 ** f.bits}) <> ${node[f.name]}`,
          )
          .join(' OR ');
        const [m] = await db.query<{ n: unknown; wrong: unknown }>(
          `SELECT COUNT(*) AS n, SUM(CASE WHEN ${wrong || '1 = 0'} THEN 1 ELSE 0 END) AS wrong FROM ${map} WHERE table_name = ?`,
          [name],
        );
        if (Number(m?.n ?? 0) !== n)
          problems.push(`${name}: the mapping holds ${Number(m?.n ?? 0)} ids for ${n} rows`);
        wrongNode += Number(m?.wrong ?? 0);
      }
    }
    return out;
  });
  if (wrongNode > 0) problems.push(`${wrongNode} new ids do not carry the node ${JSON.stringify(node)}`);
  const dangling = await countDangling(
    target,
    [...setup.tables.values()].flatMap((i) => i.table.foreignKeys),
  );
  for (const [fk, count] of Object.entries(dangling)) {
    if (count > 0) problems.push(`${fk}: ${count} references resolve to no row`);
  }
  if (problems.length > 0) problems.push(...examples.map((e) => `  e.g. ${e}`));
  return { ok: problems.length === 0, problems, tables, dangling, wrongNode };
}
