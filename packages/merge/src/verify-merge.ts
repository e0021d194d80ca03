import { BOOKKEEPING_TABLES, countRows, hasTable } from './bookkeeping.js';
import type { MergeSqlClient } from './database.js';
import { type MergeInputs, type MergeSetup, setUpMerge, type TablePlanInfo } from './merge-setup.js';
import { WorkTables } from './merge-tables.js';
import { asText, keyText, stringLiteral } from './sql.js';
import { refreshStatistics } from './stage-table.js';
import {
  castAs,
  countDangling,
  holds,
  quoter,
  stageForVerification,
  type TableVerification,
  type Verification,
} from './verification.js';

const T = BOOKKEEPING_TABLES;

/**
 * Checks a merge against its sources, reading every row again: each source row in the target
 * exactly once (renames and skips explained), nothing else added, every foreign key resolving.
 *
 * @example
 * const v = await verifyMerge({ sources, target, onConflict: { 'players.name': 'rename' } });
 * v.ok;       // true
 * v.problems; // []
 */
export async function verifyMerge(inputs: MergeInputs): Promise<Verification> {
  const setup = await setUpMerge(inputs);
  const { target } = inputs;
  const problems = [...setup.problems];
  if (!(await hasTable(target, T.mergeInputs))) {
    problems.push('the target holds no merge (no snowkey_merge_inputs table)');
    return { ok: false, problems, tables: [], dangling: {} };
  }
  const [saved] = await target.query<{ fingerprint: string; facts: string }>(
    `SELECT fingerprint, facts FROM ${T.mergeInputs} WHERE id = 1`,
  );
  if (saved && saved.fingerprint !== setup.fingerprint) {
    problems.push(`the target holds a merge of other inputs: ${saved.fingerprint}`);
  }
  const rowsBefore =
    (saved ? (JSON.parse(saved.facts) as { rowsBefore?: Record<string, number> }).rowsBefore : {}) ?? {};
  const examples: string[] = [];
  const tables = await target.session(async (session) => {
    const names = new WorkTables('snowkey_verify_', true);
    const out: TableVerification[] = [];
    const records: string[] = [];
    for (const t of [T.renames, T.skips, T.collisions]) if (await hasTable(session, t)) records.push(t);
    await refreshStatistics(session, records);
    for (const name of setup.order) {
      const info = setup.tables.get(name)!;
      const stage = await stageForVerification(
        session,
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
      out.push(
        await compareTable(session, setup, inputs, info, stage, rowsBefore[name] ?? 0, problems, examples),
      );
      await names.drop(session, stage);
    }
    return out;
  });
  const collisions = await target.query<{ table_name: string; n: unknown }>(
    `SELECT table_name, COUNT(*) AS n FROM ${T.collisions} GROUP BY table_name ORDER BY table_name`,
  );
  for (const c of collisions) {
    problems.push(
      `${c.table_name}: ${Number(c.n)} source rows were left out, their key held by another row (key collisions)`,
    );
  }
  const dangling = await countDangling(
    target,
    [...setup.tables.values()].flatMap((i) => i.table.foreignKeys),
  );
  for (const [fk, n] of Object.entries(dangling))
    if (n > 0) problems.push(`${fk}: ${n} references resolve to no row`);
  if (problems.length > 0) problems.push(...examples.map((e) => `  e.g. ${e}`));
  return { ok: problems.length === 0, problems, tables, dangling };
}

async function compareTable(
  db: MergeSqlClient,
  setup: MergeSetup,
  inputs: MergeInputs,
  info: TablePlanInfo,
  stage: string,
  before: number,
  problems: string[],
  examples: string[],
): Promise<TableVerification> {
  const d = db.dialect;
  const q = quoter(d);
  const name = info.table.name;
  const lit = (s: string) => stringLiteral(d, s);
  const col = (c: string) => info.table.columns.find((x) => x.name === c)!;
  const hasRecords = async (table: string, of: string) =>
    Number(
      (await db.query<{ n: unknown }>(`SELECT COUNT(*) AS n FROM ${table} WHERE table_name = ?`, [of]))[0]
        ?.n ?? 0,
    ) > 0;

  // References to rows skipped under a policy are expected to point at the row standing in.
  const joins: string[] = [];
  const expected = new Map<string, string>();
  for (const [j, fk] of info.foreignKeys.entries()) {
    const parent = setup.tables.get(fk.refTable);
    if (parent?.key.length !== 1 || fk.columns.length !== 1) continue;
    if (fk.refColumns[0] !== parent.key[0] || !(await hasRecords(T.skips, fk.refTable))) continue;
    const c = fk.columns[0]!;
    joins.push(
      `LEFT JOIN ${T.skips} r${j} ON r${j}.table_name = ${lit(fk.refTable)} AND r${j}.source_position = a.snowkey_src AND r${j}.row_key = ${asText(d, `a.${q(c)}`)}`,
    );
    if (!expected.has(c))
      expected.set(
        c,
        `CASE WHEN r${j}.row_key IS NULL THEN a.${q(c)} ELSE ${castAs(d, `r${j}.target_key`, col(c))} END`,
      );
  }
  const value = (c: string) => expected.get(c) ?? `a.${q(c)}`;
  const keyExpr = info.key.map(value);
  const rawKey = keyText(
    d,
    info.key.map((k) => `a.${q(k)}`),
  );
  const left = `(sk.row_key IS NOT NULL OR cl.row_key IS NOT NULL)`;
  joins.push(
    `LEFT JOIN ${T.skips} sk ON sk.table_name = ${lit(name)} AND sk.source_position = a.snowkey_src AND sk.row_key = ${rawKey}`,
    `LEFT JOIN ${T.collisions} cl ON cl.table_name = ${lit(name)} AND cl.source_position = a.snowkey_src AND cl.row_key = ${rawKey}`,
  );
  const renamed = info.rules.filter((r) => r.renameColumn).map((r) => r.renameColumn!);
  const renamedHere = (await hasRecords(T.renames, name)) ? [...new Set(renamed)] : [];
  renamedHere.forEach((c, i) => {
    joins.push(
      `LEFT JOIN ${T.renames} rn${i} ON rn${i}.table_name = ${lit(name)} AND rn${i}.row_key = ${keyText(d, keyExpr)} AND rn${i}.column_name = ${lit(c)}`,
    );
    expected.set(
      c,
      `CASE WHEN rn${i}.row_key IS NULL THEN a.${q(c)} WHEN rn${i}.old_value = ${asText(d, `a.${q(c)}`)} THEN rn${i}.new_value END`,
    );
  });
  // Rows whose reference points at a row of the same source left out by a key collision.
  const collidedParents: string[] = [];
  for (const [j, fk] of info.foreignKeys.entries()) {
    const parent = setup.tables.get(fk.refTable);
    if (!parent || !(await hasRecords(T.collisions, fk.refTable))) continue;
    if ([...fk.refColumns].sort().join() !== [...parent.key].sort().join()) continue;
    const cols = parent.key.map((k) => `a.${q(fk.columns[fk.refColumns.indexOf(k)]!)}`);
    joins.push(
      `LEFT JOIN ${T.collisions} cp${j} ON cp${j}.table_name = ${lit(fk.refTable)} AND cp${j}.source_position = a.snowkey_src AND cp${j}.row_key = ${keyText(d, cols)}`,
    );
    collidedParents.push(`cp${j}.row_key IS NOT NULL`);
  }
  const sourceRows: Record<string, number> = {};
  let missing = 0;
  let different = 0;
  let leftOut = 0;
  let misattached = 0;
  let usedRenames = 0;
  for (const [p, s] of inputs.sources.entries()) {
    const cols = info.columns.get(p);
    if (!cols) continue;
    const found = `t.${q(info.key[0]!)} IS NOT NULL`;
    const same = cols.map((c) => holds(d, col(c), `t.${q(c)}`, expected.get(c) ?? `a.${q(c)}`)).join(' AND ');
    const from = `FROM ${q(stage)} a ${joins.join(' ')} LEFT JOIN ${q(name)} t ON ${info.key
      .map((k, i) => `t.${q(k)} = ${keyExpr[i]}`)
      .join(' AND ')} WHERE a.snowkey_src = ${p}`;
    const [r] = await db.query<Record<string, unknown>>(
      `SELECT COUNT(*) AS n,
        SUM(CASE WHEN ${left} THEN 1 ELSE 0 END) AS left_out,
        SUM(CASE WHEN NOT ${left} AND NOT (${found}) THEN 1 ELSE 0 END) AS missing,
        SUM(CASE WHEN NOT ${left} AND ${found} AND NOT (${same}) THEN 1 ELSE 0 END) AS different,
        SUM(CASE WHEN NOT ${left} AND (${collidedParents.join(' OR ') || '1 = 0'}) THEN 1 ELSE 0 END) AS misattached,
        SUM(CASE WHEN NOT ${left} AND (${renamedHere.map((_, i) => `rn${i}.row_key IS NOT NULL`).join(' OR ') || '1 = 0'}) THEN 1 ELSE 0 END) AS renamed
        ${from}`,
    );
    const num = (k: string) => Number(r?.[k] ?? 0);
    sourceRows[s.label] = num('n');
    leftOut += num('left_out');
    missing += num('missing');
    different += num('different');
    misattached += num('misattached');
    usedRenames += num('renamed');
    if ((num('missing') > 0 || num('different') > 0) && examples.length < 5) {
      const bad = await db.query<Record<string, unknown>>(
        `SELECT ${rawKey} AS k, CASE WHEN ${found} THEN 1 ELSE 0 END AS found ${from} AND NOT ${left} AND (NOT (${found}) OR NOT (${same})) LIMIT ${5 - examples.length}`,
      );
      for (const b of bad) {
        examples.push(
          `${name} [${String(b.k)}] of ${s.label} ${Number(b.found) === 1 ? 'holds other values in the target' : 'is missing'}`,
        );
      }
    }
  }
  const targetRows = await countRows(db, name);
  const expectedRows = before + Object.values(sourceRows).reduce((a, b) => a + b, 0) - leftOut;
  if (misattached > 0) {
    problems.push(
      `${name}: ${misattached} rows now point at another server's row (their parent's key collided)`,
    );
  }
  if (missing > 0) problems.push(`${name}: ${missing} source rows are not in the target`);
  if (different > 0) problems.push(`${name}: ${different} source rows are in the target with other values`);
  if (targetRows !== expectedRows)
    problems.push(`${name}: the target holds ${targetRows} rows, ${expectedRows} expected`);
  const [records] = await db.query<{ n: unknown }>(
    `SELECT COUNT(*) AS n FROM ${T.renames} WHERE table_name = ?`,
    [name],
  );
  const unused = Number(records?.n ?? 0) - usedRenames;
  if (unused > 0) problems.push(`${name}: ${unused} rename records match no copied row`);
  return { table: name, sourceRows, targetRows, expectedRows, missing, different, leftOut, misattached };
}
