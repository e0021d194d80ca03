import { decode } from '@snowkey/core';
import { BOOKKEEPING_TABLES, countRows, hasTable } from './bookkeeping.js';
import { type RekeyOptions, setUpRekey } from './rekey-setup.js';
import { translateKeys } from './rekey-translate.js';
import {
  compareWithTarget,
  countDangling,
  pages,
  type TableVerification,
  type Verification,
} from './verification.js';

/**
 * Checks a rekey against its source, reading every row again: each source row is in the target
 * once, under its new id, with every other value equal and every foreign key pointing at the new
 * id of the row it pointed at; the mapping holds one new id per re-keyed row, each decoding to the
 * node given; the target holds nothing else; every foreign key of the target resolves (by SQL).
 *
 * @example
 * const v = await verifyRekey({ source, target, layout: layouts.gameServer, node: { serverId: 3 } });
 * v.ok; // true
 */
export async function verifyRekey(options: RekeyOptions): Promise<Verification & { wrongNode: number }> {
  const setup = await setUpRekey(options);
  const { source, target, layout, node } = options;
  const problems = [...setup.problems];
  if (!(await hasTable(target, BOOKKEEPING_TABLES.rekeyMap))) {
    problems.push('the target holds no rekey (no snowkey_rekey_map table)');
    return { ok: false, problems, tables: [], dangling: {}, wrongNode: 0 };
  }
  const tables: TableVerification[] = [];
  const examples: string[] = [];
  let wrongNode = 0;
  for (const name of setup.order) {
    const info = setup.tables.get(name)!;
    const own = info.rekeyed ? [{ column: info.rekeyed, refTable: name }] : [];
    let n = 0;
    let missing = 0;
    let different = 0;
    for await (const page of pages(source, name, info.columns, info.key)) {
      n += page.length;
      const expected = page.map((r) => ({ ...r }));
      await translateKeys(target, name, expected, [...own, ...info.refs, ...info.deferredRefs]);
      const found = await compareWithTarget(target, name, info.key, info.columns, expected, examples);
      missing += found.missing;
      different += found.different;
    }
    const targetRows = await countRows(target, name);
    tables.push({
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
    if (different > 0) problems.push(`${name}: ${different} source rows are in the target with other values`);
    if (targetRows !== n) problems.push(`${name}: the target holds ${targetRows} rows, the source ${n}`);
    if (info.rekeyed) {
      const ids = await target.query<{ new_id: bigint }>(
        `SELECT new_id FROM ${BOOKKEEPING_TABLES.rekeyMap} WHERE table_name = ?`,
        [name],
      );
      if (ids.length !== n) problems.push(`${name}: the mapping holds ${ids.length} ids for ${n} rows`);
      for (const { new_id } of ids) {
        const parts = decode(BigInt(new_id), { layout }) as Record<string, unknown>;
        if (Object.entries(node).some(([f, v]) => parts[f] !== v)) wrongNode++;
      }
    }
  }
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
