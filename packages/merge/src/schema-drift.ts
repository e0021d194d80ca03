import type { ColumnInfo, SchemaInfo, TableInfo } from './schema.js';

/**
 * A difference between the shards' schemas: a table or a column one shard lacks, a type or a
 * constraint that differs. A merge refuses drift unless each difference is accepted by its `id`.
 */
export interface SchemaDrift {
  /** `S3:accounts` (a table), `S3:accounts.nickname` (a column), `S3:accounts(handle)` (a unique key), `S3:accounts->guilds(guild_id)` (a foreign key). */
  readonly id: string;
  readonly source: string;
  readonly table: string;
  /** What differs, and what an accepted difference does. */
  readonly text: string;
}

/** How a column's type compares across shards: the declared type, or its family across kinds of database. */
function typeOf(dialect: string, c: ColumnInfo, across: boolean): string {
  if (!across)
    return (c.sqlType ?? c.type)
      .toLowerCase()
      .replace(/\s+/g, ' ')
      .replace(/^(\w*int)\(\d+\)/, '$1');
  if (c.integer) return c.bigint ? 'integer (64-bit)' : 'integer';
  if (c.text) return c.maxLength === null ? 'text' : `text(${c.maxLength})`;
  return `${dialect}:${c.type}`;
}

const uniquesOf = (t: TableInfo) =>
  new Set([t.primaryKey.join('+'), ...t.uniques.map((u) => [...u.columns].sort().join('+'))].filter(Boolean));
const fksOf = (t: TableInfo) => new Set(t.foreignKeys.map((f) => `${f.refTable}(${f.columns.join('+')})`));

/**
 * Compares each source's schema of the merged tables with the first source that has the table:
 * tables and columns missing on a source, column types and nullability, primary and unique keys,
 * and foreign keys that differ.
 */
export function schemaDrift(
  tables: readonly string[],
  sources: readonly { label: string; schema: SchemaInfo }[],
): SchemaDrift[] {
  const out: SchemaDrift[] = [];
  const across = new Set(sources.map((s) => s.schema.dialect)).size > 1;
  for (const name of tables) {
    const having = sources.filter((s) => s.schema.tables.some((t) => t.name === name));
    if (having.length === 0) continue;
    const ref = having[0]!;
    const refTable = ref.schema.tables.find((t) => t.name === name)!;
    const allColumns = [
      ...new Set(
        having.flatMap((s) => s.schema.tables.find((t) => t.name === name)!.columns.map((c) => c.name)),
      ),
    ];
    for (const s of sources) {
      const t = s.schema.tables.find((x) => x.name === name);
      if (!t) {
        out.push({
          id: `${s.label}:${name}`,
          source: s.label,
          table: name,
          text: `table ${name} is missing on ${s.label} (${ref.label} has it): ${s.label} would add none of its rows`,
        });
        continue;
      }
      if (s === ref) continue;
      for (const c of allColumns) {
        const mine = t.columns.find((x) => x.name === c);
        const theirs = having
          .map((h) => ({
            label: h.label,
            c: h.schema.tables.find((x) => x.name === name)!.columns.find((x) => x.name === c),
          }))
          .find((h) => h.c !== undefined)!;
        if (!mine) {
          out.push({
            id: `${s.label}:${name}.${c}`,
            source: s.label,
            table: name,
            text: `column ${name}.${c} is missing on ${s.label} (${theirs.label} has it): its rows would get the target's default`,
          });
          continue;
        }
        const refCol = refTable.columns.find((x) => x.name === c);
        if (!refCol) continue;
        const a = typeOf(ref.schema.dialect, refCol, across);
        const b = typeOf(s.schema.dialect, mine, across);
        if (a !== b) {
          out.push({
            id: `${s.label}:${name}.${c}`,
            source: s.label,
            table: name,
            text: `column ${name}.${c} is ${b} on ${s.label}, ${a} on ${ref.label}: its values would be converted by the target`,
          });
        } else if (refCol.nullable !== mine.nullable) {
          out.push({
            id: `${s.label}:${name}.${c}`,
            source: s.label,
            table: name,
            text: `column ${name}.${c} is ${mine.nullable ? 'nullable' : 'NOT NULL'} on ${s.label}, ${refCol.nullable ? 'nullable' : 'NOT NULL'} on ${ref.label}: the target's constraint applies`,
          });
        }
      }
      const ru = uniquesOf(refTable);
      const mu = uniquesOf(t);
      for (const u of new Set([...ru, ...mu])) {
        if (ru.has(u) === mu.has(u)) continue;
        out.push({
          id: `${s.label}:${name}(${u})`,
          source: s.label,
          table: name,
          text: `unique key ${name}(${u.replaceAll('+', ', ')}) is ${mu.has(u) ? 'on' : 'not on'} ${s.label} but ${ru.has(u) ? 'on' : 'not on'} ${ref.label}: the target's constraint applies`,
        });
      }
      const rf = fksOf(refTable);
      const mf = fksOf(t);
      for (const f of new Set([...rf, ...mf])) {
        if (rf.has(f) === mf.has(f)) continue;
        out.push({
          id: `${s.label}:${name}->${f}`,
          source: s.label,
          table: name,
          text: `foreign key ${name} -> ${f} is ${mf.has(f) ? 'on' : 'not on'} ${s.label} but ${rf.has(f) ? 'on' : 'not on'} ${ref.label}: the target's constraint applies`,
        });
      }
    }
  }
  return out;
}
