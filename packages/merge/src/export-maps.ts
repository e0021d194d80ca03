import { InvalidArgumentError } from '@snowkey/core';
import { BOOKKEEPING_TABLES, hasTable } from './bookkeeping.js';
import type { MergeSqlClient, SqlValue } from './database.js';
import { after } from './sql.js';

/** The formats {@link exportMaps} writes. */
export type MapFormat = 'csv' | 'json';

const T = BOOKKEEPING_TABLES;

const csvField = (v: unknown) => {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};

/**
 * Writes a job's maps (a rekey's old and new ids; a merge's renames and skips) as CSV or JSON, a
 * page at a time, for reconciling logs and payments with the merged database.
 *
 * @example
 * import { createWriteStream } from 'node:fs';
 * const file = createWriteStream('rekey-map.csv');
 * await exportMaps(target, { job: 'rekey', format: 'csv', write: (text) => void file.write(text) });
 * file.end();
 */
export async function exportMaps(
  target: MergeSqlClient,
  options: { job: 'merge' | 'rekey'; format: MapFormat; write: (text: string) => unknown },
): Promise<number> {
  const { job, format, write } = options;
  if (job !== 'merge' && job !== 'rekey') throw new InvalidArgumentError('job', 'merge or rekey', job);
  if (format !== 'csv' && format !== 'json') throw new InvalidArgumentError('format', 'csv or json', format);
  const columns =
    job === 'rekey'
      ? ['table', 'old_id', 'new_id']
      : ['kind', 'table', 'source', 'key', 'column', 'old', 'new'];
  const sources =
    job === 'rekey'
      ? [
          {
            from: T.rekeyMap,
            select: ['table_name', 'old_id', 'new_id'],
            key: ['table_name', 'old_id'],
            kind: null,
          },
        ]
      : [
          {
            from: T.renames,
            select: ['table_name', 'source_label', 'row_key', 'column_name', 'old_value', 'new_value'],
            key: ['table_name', 'row_key', 'column_name'],
            kind: 'rename',
          },
          {
            from: T.skips,
            select: ['table_name', 'source_position', 'row_key', 'constraint_name', 'row_key', 'target_key'],
            key: ['table_name', 'source_position', 'row_key'],
            kind: 'skip',
          },
        ];
  let n = 0;
  let labels: string[] = [];
  if (job === 'merge' && (await hasTable(target, T.mergeInputs))) {
    const [inputs] = await target.query<{ fingerprint: string }>(
      `SELECT fingerprint FROM ${T.mergeInputs} WHERE id = 1`,
    );
    labels = (
      (inputs ? JSON.parse(inputs.fingerprint) : { sources: [] }) as { sources: string[] }
    ).sources.map((s) => s.split('=')[0]!);
  }
  await write(format === 'csv' ? `${columns.join(',')}\n` : '[');
  for (const s of sources) {
    if (!(await hasTable(target, s.from))) continue;
    let last: SqlValue[] | null = null;
    for (;;) {
      const where = after(target.dialect, s.key, last);
      const rows: Record<string, unknown>[] = await target.query<Record<string, unknown>>(
        `SELECT ${[...new Set([...s.select, ...s.key])].join(', ')} FROM ${s.from} WHERE ${where.sql} ORDER BY ${s.key.join(', ')} LIMIT 10000`,
        where.params,
      );
      let text = '';
      for (const r of rows) {
        const values = s.select.map((c) => r[c]);
        const record =
          s.kind === null
            ? values
            : s.kind === 'skip'
              ? ['skip', values[0], labels[Number(values[1])] ?? String(values[1]), ...values.slice(2)]
              : ['rename', ...values];
        if (format === 'csv') text += `${record.map(csvField).join(',')}\n`;
        else {
          text += `${n === 0 ? '\n' : ',\n'}${JSON.stringify(Object.fromEntries(columns.map((c, i) => [c, record[i] === null || record[i] === undefined ? null : String(record[i])])))}`;
        }
        n++;
      }
      if (text) await write(text);
      if (rows.length < 10000) break;
      const end = rows[rows.length - 1]!;
      last = s.key.map((c) => end[c] as SqlValue);
    }
  }
  if (format === 'json') await write(n === 0 ? ']\n' : '\n]\n');
  return n;
}
