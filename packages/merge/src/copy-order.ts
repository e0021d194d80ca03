import type { ForeignKeyInfo, TableInfo } from './schema.js';

/**
 * The order to copy tables in, parents before children, and the foreign keys that cannot be
 * written with their row: nullable self-references and nullable links that close a cycle. Those
 * are written as NULL first and filled in by a second pass once every table is copied.
 */
export interface CopyOrder {
  readonly order: readonly string[];
  readonly deferred: readonly ForeignKeyInfo[];
  /** Cycles that no nullable link breaks; the schema cannot be merged while there are any. */
  readonly cycles: readonly string[];
}

/**
 * Orders `tables` by their foreign keys (see {@link CopyOrder}). Foreign keys to tables outside
 * `tables` do not constrain the order. Ties are broken by table name, so the order is stable.
 */
export function copyOrder(tables: readonly TableInfo[]): CopyOrder {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const nullable = (fk: ForeignKeyInfo) =>
    fk.columns.every((c) => byName.get(fk.table)?.columns.find((x) => x.name === c)?.nullable === true);
  const deferred: ForeignKeyInfo[] = [];
  let edges: ForeignKeyInfo[] = [];
  for (const t of tables) {
    for (const fk of t.foreignKeys) {
      if (!byName.has(fk.refTable)) continue;
      if (fk.refTable === t.name) {
        // A NOT NULL self-reference is copied with its row, in key order: a row may point at itself
        // or at a row with a smaller key (copied in an earlier batch, or earlier in the same statement).
        if (nullable(fk)) deferred.push(fk);
        continue;
      }
      edges.push(fk);
    }
  }
  const cycles: string[] = [];
  for (const scc of components(
    tables.map((t) => t.name),
    edges,
  )) {
    if (scc.length < 2) continue;
    const inside = (fk: ForeignKeyInfo) => scc.includes(fk.table) && scc.includes(fk.refTable);
    deferred.push(...edges.filter((fk) => inside(fk) && nullable(fk)));
    edges = edges.filter((fk) => !(inside(fk) && nullable(fk)));
  }
  for (const scc of components(
    tables.map((t) => t.name),
    edges,
  )) {
    if (scc.length < 2) continue;
    const links = edges.filter((fk) => scc.includes(fk.table) && scc.includes(fk.refTable));
    cycles.push(
      `foreign-key cycle ${scc.join(' -> ')} through NOT NULL columns ${links.map((fk) => `${fk.table}.${fk.columns.join('+')}`).join(', ')}: make one of them nullable, or leave a table out`,
    );
  }
  return {
    order:
      cycles.length > 0
        ? []
        : topological(
            tables.map((t) => t.name),
            edges,
          ),
    deferred,
    cycles,
  };
}

/** Kahn's algorithm, always taking the smallest ready name. */
function topological(names: readonly string[], edges: readonly ForeignKeyInfo[]): string[] {
  const waitingOn = new Map(names.map((n) => [n, new Set<string>()]));
  for (const fk of edges) waitingOn.get(fk.table)!.add(fk.refTable);
  const order: string[] = [];
  while (waitingOn.size > 0) {
    const ready = [...waitingOn]
      .filter(([, deps]) => deps.size === 0)
      .map(([n]) => n)
      .sort();
    const next = ready[0]!;
    order.push(next);
    waitingOn.delete(next);
    for (const deps of waitingOn.values()) deps.delete(next);
  }
  return order;
}

/** Strongly connected components (Tarjan), each sorted by name. */
function components(names: readonly string[], edges: readonly ForeignKeyInfo[]): string[][] {
  const next = new Map(names.map((n) => [n, [] as string[]]));
  for (const fk of edges) next.get(fk.table)!.push(fk.refTable);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let counter = 0;
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      out.push(scc.sort());
    }
  };
  for (const n of names) if (!index.has(n)) visit(n);
  return out;
}
