import { BOOKKEEPING_TABLES } from './bookkeeping.js';
import type { MergeSqlClient, SqlValue } from './database.js';
import { type MergeConflict, MergeSchemaError } from './errors.js';
import type { MergeSetup, TablePlanInfo, UniqueRule } from './merge-setup.js';
import { columnDef, finalRow, type TableDecisions, type WorkTables } from './merge-tables.js';
import { renamedSql } from './rename-template.js';
import {
  asText,
  innerJoin,
  insertIgnoring,
  keyText,
  quote,
  sameValue,
  stringLiteral,
  updateJoined,
} from './sql.js';
import { refreshStatistics } from './stage-table.js';

/** What the analysis of a table found under each constraint, for the plan and the refusal. */
export interface ConstraintFindings {
  /** `table.PRIMARY KEY` or the rule's id. */
  readonly id: string;
  readonly table: string;
  readonly constraint: string;
  readonly policy: 'rename' | 'skip' | 'fail' | 'record';
  readonly count: number;
  readonly examples: readonly MergeConflict[];
}

/** Everything a table's analysis decided and found. */
export interface TableAnalysis {
  readonly decisions: TableDecisions;
  readonly findings: readonly ConstraintFindings[];
}

/** Whether `select` (columns k0, k1, ...) yields one tuple twice: no work table is needed otherwise. */
async function hasDuplicates(db: MergeSqlClient, select: string, columns: number): Promise<boolean> {
  const cols = Array.from({ length: columns }, (_, i) => `k${i}`).join(', ');
  const rows = await db.query(
    `SELECT 1 AS x FROM (${select}) x GROUP BY ${cols} HAVING COUNT(*) > 1 LIMIT 1`,
  );
  return rows.length > 0;
}

/**
 * Decides, by set operations in the target, what happens to every staged row of a table before any
 * is written: key collisions (a key held by the target or by an earlier source), then each unique
 * constraint in turn (a value held by the target, an earlier source, or an earlier row) under its
 * policy: renamed (new values found in rounds, each avoiding every value held), skipped (with the
 * row that stands in for it), or found and reported (`fail`). The sources are taken in order, so an
 * earlier source keeps its values. Writes the decisions into the work tables, and, with `records`,
 * the merge's records of renames, skips and collisions.
 */
export async function analyzeTable(
  db: MergeSqlClient,
  setup: MergeSetup,
  info: TablePlanInfo,
  names: WorkTables,
  decided: ReadonlyMap<string, TableDecisions>,
  options: { labels: readonly string[]; keyCollisions: 'fail' | 'record'; records: boolean },
): Promise<TableAnalysis> {
  const d = db.dialect;
  const q = (c: string) => quote(d, c);
  const t = info.table.name;
  const n = info.number;
  const stage = q(names.stage(n));
  const keyCols = info.key.map((k) => info.table.columns.find((c) => c.name === k)!);
  const label = `CASE a.snowkey_src ${options.labels.map((l, i) => `WHEN ${i} THEN ${stringLiteral(d, l)}`).join(' ')} END`;
  const sources = [...info.columns.keys()].sort((x, y) => x - y);

  const bounds: Record<number, [number, number, number]> = {};
  for (const r of await db.query<{ s: unknown; lo: unknown; hi: unknown; n: unknown }>(
    `SELECT snowkey_src AS s, MIN(snowkey_seq) AS lo, MAX(snowkey_seq) AS hi, COUNT(*) AS n FROM ${stage} GROUP BY snowkey_src`,
  )) {
    bounds[Number(r.s)] = [Number(r.lo), Number(r.hi), Number(r.n)];
  }

  const before = finalRow(d, names, info, setup.tables, decided, { renames: false, self: false });
  const out = names.out(n);
  await names.create(
    db,
    out,
    [
      'snowkey_seq BIGINT NOT NULL',
      'snowkey_src INT NOT NULL',
      `snowkey_fate ${d === 'mysql' ? 'TINYINT' : 'SMALLINT'} NOT NULL`,
      ...keyCols.map((c, i) => columnDef(d, `k${i}`, c)),
      ...keyCols.map((c, i) => columnDef(d, `t${i}`, c)),
      'rule_id VARCHAR(255) NOT NULL',
    ],
    ['snowkey_seq'],
  );
  const findings: ConstraintFindings[] = [];
  const rawKey = info.key.map((k) => `a.${q(k)}`);
  const finalKey = info.key.map((k) => before.col(k));

  /** Counts and three examples of the staged rows of `source` that `from` finds. */
  const find = async (from: string, values: readonly string[], source: number) => {
    const [c] = await db.query<{ n: unknown }>(`SELECT COUNT(*) AS n ${from}`);
    const examples = await db.query<Record<string, unknown>>(
      `SELECT ${rawKey.map((k, i) => `${k} AS k${i}`).join(', ')}, ${values.map((v, i) => `${v} AS v${i}`).join(', ')} ${from} ORDER BY a.snowkey_seq LIMIT 3`,
    );
    return {
      count: Number(c?.n ?? 0),
      examples: examples.map((e) => ({
        key: info.key.map((_, i) => e[`k${i}`]),
        value: values.map((_, i) => e[`v${i}`]),
        source: options.labels[source]!,
      })),
    };
  };

  // Key collisions: a key the target holds, or an earlier source (or row) brought. One grouping
  // finds whether there is any; only then are they decided source by source.
  const keys = names.keys(n);
  const built = new Set<string>();
  const pkClash = await hasDuplicates(
    db,
    `SELECT ${finalKey.map((k, i) => `${k} AS k${i}`).join(', ')} FROM ${stage} a ${before.joins} UNION ALL SELECT ${info.key
      .map((k, i) => `${q(k)} AS k${i}`)
      .join(', ')} FROM ${q(t)}`,
    keyCols.length,
  );
  if (pkClash) built.add(keys);
  if (pkClash)
    await names.create(
      db,
      keys,
      [...keyCols.map((c, i) => columnDef(d, `k${i}`, c)), 'snowkey_seq BIGINT'],
      keyCols.map((_, i) => `k${i}`),
    );
  const kcols = keyCols.map((_, i) => `k${i}`).join(', ');
  if (pkClash) {
    await db.execute(
      `INSERT INTO ${q(keys)} (${kcols}, snowkey_seq) SELECT ${info.key.map(q).join(', ')}, NULL FROM ${q(t)}`,
    );
  }
  const pk: ConstraintFindings = {
    id: `${t}.PRIMARY KEY`,
    table: t,
    constraint: 'PRIMARY KEY',
    policy: options.keyCollisions,
    count: 0,
    examples: [],
  };
  const pkExamples: MergeConflict[] = [];
  let pkCount = 0;
  for (const p of pkClash ? sources : []) {
    await db.execute(
      insertIgnoring(
        d,
        `${q(keys)} (${kcols}, snowkey_seq)`,
        `SELECT ${finalKey.join(', ')}, a.snowkey_seq FROM ${stage} a ${before.joins} WHERE a.snowkey_src = ${p} ORDER BY a.snowkey_seq`,
      ),
    );
    const from = `FROM ${stage} a ${before.joins} ${innerJoin(d)} ${q(keys)} h ON ${finalKey.map((k, i) => `h.k${i} = ${k}`).join(' AND ')} WHERE a.snowkey_src = ${p} AND NOT (${sameValue(d, 'h.snowkey_seq', 'a.snowkey_seq')})`;
    const f = await find(from, finalKey, p);
    if (f.count === 0) continue;
    pkCount += f.count;
    pkExamples.push(...f.examples.map((e) => ({ table: t, constraint: 'PRIMARY KEY', ...e })));
    if (options.keyCollisions === 'record') {
      await db.execute(
        `INSERT INTO ${q(out)} (snowkey_seq, snowkey_src, snowkey_fate, ${keyCols.map((_, i) => `k${i}`).join(', ')}, rule_id) SELECT a.snowkey_seq, a.snowkey_src, 2, ${rawKey.join(', ')}, 'PRIMARY KEY' ${from}`,
      );
    }
  }
  findings.push({ ...pk, count: pkCount, examples: pkExamples.slice(0, 3) });

  const renamed: number[] = info.rules.map(() => 0);
  for (const rule of info.rules) {
    const f = await analyzeRule(db, setup, info, rule, names, before, sources, options.labels, out, built);
    renamed[rule.number] = f.renamed;
    findings.push(f.findings);
  }
  await names.drop(db, keys);
  for (const rule of info.rules) await names.drop(db, names.held(n, rule.number));

  const [counts] = await db.query<{ skipped: unknown; n: unknown }>(
    `SELECT SUM(CASE WHEN snowkey_fate = 1 THEN 1 ELSE 0 END) AS skipped, COUNT(*) AS n FROM ${q(out)}`,
  );
  const decisions: TableDecisions = {
    bounds,
    skipped: Number(counts?.skipped ?? 0),
    out: Number(counts?.n ?? 0),
    renamed,
  };
  if (decisions.skipped > 0) {
    await names.index(db, out, `${out}_by_key`, ['snowkey_src', ...keyCols.map((_, i) => `k${i}`)]);
  }
  await refreshStatistics(db, [
    out,
    ...info.rules.filter((r) => renamed[r.number]! > 0).map((r) => names.renamed(n, r.number)),
  ]);
  if (options.records) await writeRecords(db, info, names, decisions, label, before.joins, rawKey, finalKey);
  return { decisions, findings };
}

async function analyzeRule(
  db: MergeSqlClient,
  setup: MergeSetup,
  info: TablePlanInfo,
  rule: UniqueRule,
  names: WorkTables,
  before: ReturnType<typeof finalRow>,
  sources: readonly number[],
  labels: readonly string[],
  out: string,
  built: Set<string>,
): Promise<{ renamed: number; findings: ConstraintFindings }> {
  const d = db.dialect;
  const q = (c: string) => quote(d, c);
  const t = info.table.name;
  const n = info.number;
  const stage = q(names.stage(n));
  const ucols = rule.unique.columns.map((c) => info.table.columns.find((x) => x.name === c)!);
  const keyCols = info.key.map((k) => info.table.columns.find((c) => c.name === k)!);
  const held = names.held(n, rule.number);
  const finalU0 = rule.unique.columns.map((c) => before.col(c));
  const clash = await hasDuplicates(
    db,
    `SELECT ${finalU0.map((u, i) => `${u} AS k${i}`).join(', ')} FROM ${stage} a ${before.joins} LEFT JOIN ${q(out)} o ON o.snowkey_seq = a.snowkey_seq WHERE o.snowkey_seq IS NULL AND ${finalU0
      .map((u) => `${u} IS NOT NULL`)
      .join(
        ' AND ',
      )} UNION ALL SELECT ${rule.unique.columns.map((c, i) => `${q(c)} AS k${i}`).join(', ')} FROM ${q(t)} WHERE ${rule.unique.columns
      .map((c) => `${q(c)} IS NOT NULL`)
      .join(' AND ')}`,
    ucols.length,
  );
  const none = {
    id: rule.id,
    table: t,
    constraint: rule.unique.columns.join('+'),
    policy: rule.policy,
    count: 0,
    examples: [],
  };
  if (!clash) return { renamed: 0, findings: none };
  built.add(held);
  await names.create(
    db,
    held,
    [
      ...ucols.map((c, i) => columnDef(d, `u${i}`, c)),
      'snowkey_seq BIGINT',
      ...keyCols.map((c, i) => columnDef(d, `h${i}`, c)),
    ],
    ucols.map((_, i) => `u${i}`),
  );
  const hcols = `${ucols.map((_, i) => `u${i}`).join(', ')}, snowkey_seq, ${keyCols.map((_, i) => `h${i}`).join(', ')}`;
  const finalU = rule.unique.columns.map((c) => before.col(c));
  const finalKey = info.key.map((k) => before.col(k));
  const rawKey = info.key.map((k) => `a.${q(k)}`);
  const complete = finalU.map((u) => `${u} IS NOT NULL`).join(' AND ');
  await db.execute(
    `INSERT INTO ${q(held)} (${hcols}) SELECT ${rule.unique.columns.map(q).join(', ')}, NULL, ${info.key.map(q).join(', ')} FROM ${q(t)} WHERE ${rule.unique.columns.map((c) => `${q(c)} IS NOT NULL`).join(' AND ')}`,
  );
  const notOut = `LEFT JOIN ${q(out)} o ON o.snowkey_seq = a.snowkey_seq`;
  const ren = names.renamed(n, rule.number);
  if (rule.policy === 'rename') {
    await names.create(
      db,
      ren,
      [
        'snowkey_seq BIGINT NOT NULL',
        'snowkey_src INT NOT NULL',
        columnDef(d, 'v', info.table.columns.find((c) => c.name === rule.renameColumn)!),
      ],
      ['snowkey_seq'],
    );
  }
  let count = 0;
  let renamedRows = 0;
  const examples: MergeConflict[] = [];
  for (const p of sources) {
    await db.execute(
      insertIgnoring(
        d,
        `${q(held)} (${hcols})`,
        `SELECT ${finalU.join(', ')}, a.snowkey_seq, ${finalKey.join(', ')} FROM ${stage} a ${before.joins} ${notOut} WHERE a.snowkey_src = ${p} AND o.snowkey_seq IS NULL AND ${complete} ORDER BY a.snowkey_seq`,
      ),
    );
    const from = `FROM ${stage} a ${before.joins} ${notOut} ${innerJoin(d)} ${q(held)} h ON ${finalU.map((u, i) => `h.u${i} = ${u}`).join(' AND ')} WHERE a.snowkey_src = ${p} AND o.snowkey_seq IS NULL AND NOT (${sameValue(d, 'h.snowkey_seq', 'a.snowkey_seq')})`;
    const [c] = await db.query<{ n: unknown }>(`SELECT COUNT(*) AS n ${from}`);
    const found = Number(c?.n ?? 0);
    if (found === 0) continue;
    count += found;
    if (examples.length < 3) {
      const rows = await db.query<Record<string, unknown>>(
        `SELECT ${rawKey.map((k, i) => `${k} AS k${i}`).join(', ')}, ${finalU.map((u, i) => `${u} AS v${i}`).join(', ')} ${from} ORDER BY a.snowkey_seq LIMIT 3`,
      );
      for (const r of rows) {
        examples.push({
          table: t,
          constraint: rule.unique.columns.join('+'),
          source: labels[p]!,
          key: info.key.map((_, i) => r[`k${i}`]),
          value: finalU.map((_, i) => r[`v${i}`]),
        });
      }
    }
    if (rule.policy === 'skip') {
      await db.execute(
        `INSERT INTO ${q(out)} (snowkey_seq, snowkey_src, snowkey_fate, ${keyCols.map((_, i) => `k${i}`).join(', ')}, ${keyCols.map((_, i) => `t${i}`).join(', ')}, rule_id) SELECT a.snowkey_seq, a.snowkey_src, 1, ${rawKey.join(', ')}, ${keyCols.map((_, i) => `h.h${i}`).join(', ')}, ${stringLiteral(d, rule.id)} ${from}`,
      );
      // A skipped row holds neither its key nor the values of the constraints before this one.
      const skippedHere = `SELECT snowkey_seq FROM ${q(out)} WHERE snowkey_fate = 1 AND snowkey_src = ${p}`;
      const earlier = info.rules.filter((o) => o.number < rule.number).map((o) => names.held(n, o.number));
      for (const table of [names.keys(n), ...earlier]) {
        if (built.has(table))
          await db.execute(`DELETE FROM ${q(table)} WHERE snowkey_seq IN (${skippedHere})`);
      }
    }
    if (rule.policy === 'rename') {
      await db.execute(
        `INSERT INTO ${q(ren)} (snowkey_seq, snowkey_src, v) SELECT a.snowkey_seq, a.snowkey_src, NULL ${from}`,
      );
      renamedRows += await renameRounds(db, info, rule, names, before, p, labels[p]!, setup.renameTemplate);
    }
  }
  return {
    renamed: renamedRows,
    findings: {
      id: rule.id,
      table: t,
      constraint: rule.unique.columns.join('+'),
      policy: rule.policy,
      count,
      examples,
    },
  };
}

/**
 * Finds new values for the rows of source `p` waiting in the renamed table: round k tries each
 * row's k-th candidate; the rows whose candidate nobody holds (the first in staging order, when two
 * rows' candidates meet) take it, the others try the next round.
 */
async function renameRounds(
  db: MergeSqlClient,
  info: TablePlanInfo,
  rule: UniqueRule,
  names: WorkTables,
  before: ReturnType<typeof finalRow>,
  p: number,
  label: string,
  template: string,
): Promise<number> {
  const d = db.dialect;
  const q = (c: string) => quote(d, c);
  const n = info.number;
  const stage = q(names.stage(n));
  const held = q(names.held(n, rule.number));
  const ren = q(names.renamed(n, rule.number));
  const column = rule.renameColumn!;
  const keyCols = info.key.map((k) => info.table.columns.find((c) => c.name === k)!);
  const finalKey = info.key.map((k) => before.col(k));
  const hcols = `${rule.unique.columns.map((_, i) => `u${i}`).join(', ')}, snowkey_seq, ${keyCols.map((_, i) => `h${i}`).join(', ')}`;
  let total = 0;
  for (let attempt = 1; ; attempt++) {
    const candidate = renamedSql(d, `a.${q(column)}`, label, attempt, rule.maxLength ?? null, template);
    const tuple = rule.unique.columns.map((c) => (c === column ? candidate : before.col(c)));
    const from = `FROM ${ren} w ${innerJoin(d)} ${stage} a ON a.snowkey_seq = w.snowkey_seq ${before.joins} WHERE w.v IS NULL AND w.snowkey_src = ${p}`;
    await db.execute(
      insertIgnoring(
        d,
        `${held} (${hcols})`,
        `SELECT ${tuple.join(', ')}, w.snowkey_seq, ${finalKey.join(', ')} ${from} ORDER BY w.snowkey_seq`,
      ),
    );
    total += await updateJoined(
      db,
      ren,
      `SELECT w.snowkey_seq AS s, ${candidate} AS v FROM ${ren} w ${innerJoin(d)} ${stage} a ON a.snowkey_seq = w.snowkey_seq ${before.joins} ${innerJoin(d)} ${held} h ON ${tuple.map((u, i) => `h.u${i} = ${u}`).join(' AND ')} AND h.snowkey_seq = w.snowkey_seq WHERE w.v IS NULL AND w.snowkey_src = ${p}`,
      [['v', 'v']],
      [['snowkey_seq', 's']],
    );
    const [left] = await db.query<{ n: unknown }>(
      `SELECT COUNT(*) AS n FROM ${ren} WHERE v IS NULL AND snowkey_src = ${p}`,
    );
    if (Number(left?.n ?? 0) === 0) return total;
    if (attempt >= 1000) {
      throw new MergeSchemaError([
        `${rule.id}: ${Number(left?.n)} values of ${label} found no free rename in 1000 attempts (is ${column} long enough?)`,
      ]);
    }
  }
}

/** The merge's records of this table: renames, skips and key collisions, keys as text. */
async function writeRecords(
  db: MergeSqlClient,
  info: TablePlanInfo,
  names: WorkTables,
  decisions: TableDecisions,
  label: string,
  joins: string,
  rawKey: readonly string[],
  finalKey: readonly string[],
): Promise<void> {
  const d = db.dialect;
  const q = (c: string) => quote(d, c);
  const T = BOOKKEEPING_TABLES;
  const n = info.number;
  const stage = q(names.stage(n));
  const t = stringLiteral(d, info.table.name);
  for (const table of [T.renames, T.skips, T.collisions]) {
    await db.execute(`DELETE FROM ${table} WHERE table_name = ?`, [info.table.name]);
  }
  if (decisions.out > 0) {
    const o = q(names.out(n));
    await db.execute(
      `INSERT INTO ${T.skips} (table_name, source_position, row_key, target_key, constraint_name) SELECT ${t}, o.snowkey_src, ${keyText(
        d,
        info.key.map((_, i) => `o.k${i}`),
      )}, ${keyText(
        d,
        info.key.map((_, i) => `o.t${i}`),
      )}, o.rule_id FROM ${o} o WHERE o.snowkey_fate = 1`,
    );
    await db.execute(
      `INSERT INTO ${T.collisions} (table_name, source_position, row_key) SELECT ${t}, o.snowkey_src, ${keyText(
        d,
        info.key.map((_, i) => `o.k${i}`),
      )} FROM ${o} o WHERE o.snowkey_fate = 2`,
    );
  }
  for (const rule of info.rules) {
    if (!rule.renameColumn || (decisions.renamed[rule.number] ?? 0) === 0) continue;
    await db.execute(
      `INSERT INTO ${T.renames} (table_name, row_key, column_name, source_label, old_value, new_value) SELECT ${t}, ${keyText(d, finalKey)}, ${stringLiteral(d, rule.renameColumn)}, ${label}, ${asText(d, `a.${q(rule.renameColumn)}`)}, ${asText(d, 'w.v')} FROM ${q(names.renamed(n, rule.number))} w ${innerJoin(d)} ${stage} a ON a.snowkey_seq = w.snowkey_seq ${joins}`,
    );
  }
  void rawKey;
}

/** The values a conflict example shows, as the driver read them. */
export type ExampleValue = SqlValue;
