import { BOOKKEEPING_TABLES, countRows, hasTable } from './bookkeeping.js';
import { type MergeInputs, setUpMerge } from './merge-setup.js';
import { Redirects } from './redirects.js';
import { encodeKey } from './values.js';
import {
  compareWithTarget,
  countDangling,
  pages,
  type TableVerification,
  type Verification,
} from './verification.js';

/**
 * Checks a merge against its sources, reading every row again: every source row is in the target
 * exactly once with its values (a renamed value only with its rename record, a reference to a
 * skipped row only as a reference to the row that stands in for it), the target holds no other
 * rows than those it had before, no rename record is unexplained, and every foreign key of the
 * target resolves (by SQL). Key collisions a merge recorded fail it.
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
  if (!(await hasTable(target, BOOKKEEPING_TABLES.mergeInputs))) {
    problems.push('the target holds no merge (no snowkey_merge_inputs table)');
    return { ok: false, problems, tables: [], dangling: {} };
  }
  const [saved] = await target.query<{ fingerprint: string; facts: string }>(
    `SELECT fingerprint, facts FROM ${BOOKKEEPING_TABLES.mergeInputs} WHERE id = 1`,
  );
  if (saved && saved.fingerprint !== setup.fingerprint) {
    problems.push(`the target holds a merge of other inputs: ${saved.fingerprint}`);
  }
  const rowsBefore =
    (saved ? (JSON.parse(saved.facts) as { rowsBefore: Record<string, number> }).rowsBefore : {}) ?? {};
  const redirects = new Redirects(new Map([...setup.tables].map(([n, i]) => [n, i.key])));
  const tables: TableVerification[] = [];
  const examples: string[] = [];
  for (const name of setup.order) {
    const info = setup.tables.get(name)!;
    const renames = new Map<string, Map<string, string>>();
    for (const r of await target.query<{ row_key: string; column_name: string; new_value: string }>(
      `SELECT row_key, column_name, new_value FROM ${BOOKKEEPING_TABLES.renames} WHERE table_name = ?`,
      [name],
    )) {
      renames.set(r.row_key, (renames.get(r.row_key) ?? new Map()).set(r.column_name, r.new_value));
    }
    const usedRenames = new Set<string>();
    const sourceRows: Record<string, number> = {};
    let missing = 0;
    let different = 0;
    let leftOut = 0;
    let misattached = 0;
    for (const [position, s] of inputs.sources.entries()) {
      const cols = info.columns.get(position);
      if (!cols) continue;
      const collidedParents = new Map<string, Set<string>>();
      for (const fk of info.foreignKeys) {
        const parentKey = setup.tables.get(fk.refTable)?.key;
        if (!parentKey || collidedParents.has(fk.refTable)) continue;
        const keys = await target.query<{ row_key: string }>(
          `SELECT row_key FROM ${BOOKKEEPING_TABLES.collisions} WHERE table_name = ? AND source_position = ?`,
          [fk.refTable, position],
        );
        collidedParents.set(fk.refTable, new Set(keys.map((k) => k.row_key)));
      }
      const pointsAtCollided = (row: Record<string, unknown>) =>
        info.foreignKeys.some((fk) => {
          const parentKey = setup.tables.get(fk.refTable)?.key;
          const collided = collidedParents.get(fk.refTable);
          if (!parentKey || !collided || collided.size === 0) return false;
          const values = parentKey.map((c) => row[fk.columns[fk.refColumns.indexOf(c)] ?? '']);
          return values.every((v) => v !== null && v !== undefined) && collided.has(encodeKey(values));
        });
      const left = new Set<string>();
      for (const t of [BOOKKEEPING_TABLES.skips, BOOKKEEPING_TABLES.collisions]) {
        for (const r of await target.query<{ row_key: string }>(
          `SELECT row_key FROM ${t} WHERE table_name = ? AND source_position = ?`,
          [name, position],
        )) {
          left.add(r.row_key);
        }
      }
      let n = 0;
      for await (const page of pages(s.db, name, cols, info.key)) {
        n += page.length;
        const kept = page.filter((r) => !left.has(encodeKey(info.key.map((c) => r[c]))));
        leftOut += page.length - kept.length;
        misattached += kept.filter(pointsAtCollided).length;
        const expected = kept.map((r) => ({ ...r }));
        await redirects.apply(target, position, name, info.foreignKeys, expected);
        for (const row of expected) {
          const k = encodeKey(info.key.map((c) => row[c]));
          const renamed = renames.get(k);
          if (!renamed) continue;
          usedRenames.add(k);
          for (const [c, v] of renamed) row[c] = v;
        }
        const found = await compareWithTarget(target, name, info.key, cols, expected, examples);
        missing += found.missing;
        different += found.different;
      }
      sourceRows[s.label] = n;
    }
    const targetRows = await countRows(target, name);
    const expectedRows =
      (rowsBefore[name] ?? 0) + Object.values(sourceRows).reduce((a, b) => a + b, 0) - leftOut;
    tables.push({
      table: name,
      sourceRows,
      targetRows,
      expectedRows,
      missing,
      different,
      leftOut,
      misattached,
    });
    if (misattached > 0) {
      problems.push(
        `${name}: ${misattached} rows now point at another server's row (their parent's key collided)`,
      );
    }
    if (missing > 0) problems.push(`${name}: ${missing} source rows are not in the target`);
    if (different > 0) problems.push(`${name}: ${different} source rows are in the target with other values`);
    if (targetRows !== expectedRows) {
      problems.push(`${name}: the target holds ${targetRows} rows, ${expectedRows} expected`);
    }
    const unused = [...renames.keys()].filter((k) => !usedRenames.has(k)).length;
    if (unused > 0) problems.push(`${name}: ${unused} rename records match no copied row`);
  }
  const collisions = await target.query<{ table_name: string; n: unknown }>(
    `SELECT table_name, COUNT(*) AS n FROM ${BOOKKEEPING_TABLES.collisions} GROUP BY table_name ORDER BY table_name`,
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
