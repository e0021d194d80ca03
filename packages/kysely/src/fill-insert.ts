import { InvalidArgumentError } from '@snowkey/core';
import { generateOrKeep, takeIds } from '@snowkey/core/adapter';
import {
  ColumnNode,
  DefaultInsertValueNode,
  InsertQueryNode,
  type OperationNode,
  OperationNodeTransformer,
  PrimitiveValueListNode,
  type QueryId,
  type TableNode,
  ValueListNode,
  ValueNode,
  ValuesNode,
} from 'kysely';
import { UnfillableInsertError } from './errors.js';
import type { ResolvedOptions } from './options.js';

/**
 * Walks a query tree and fills the snowflake columns of every INSERT into a configured table,
 * nested ones included (a data-modifying `WITH` on PostgreSQL): each `values()` row gets an id in
 * every missing column, the column is added to the column list when no row named it, and an id
 * the caller set follows core's one rule (`generateOrKeep`). Nothing else in the tree changes.
 */
export class IdFillingTransformer extends OperationNodeTransformer {
  readonly #options: ResolvedOptions;
  /** The column node of each snowflake column, built once: nodes are immutable, so one serves every query. */
  readonly #columnNodes = new Map<string, ColumnNode>();

  constructor(options: ResolvedOptions) {
    super();
    this.#options = options;
  }

  protected override transformInsertQuery(node: InsertQueryNode, queryId?: QueryId): InsertQueryNode {
    return this.fillInsert(super.transformInsertQuery(node, queryId));
  }

  /** Fills one INSERT's rows (not what it nests): the node itself when its table has no snowflake column. */
  fillInsert(node: InsertQueryNode): InsertQueryNode {
    const table = tableName(node.into);
    const idColumns = table === undefined ? undefined : this.#options.tables.get(table);
    if (table === undefined || idColumns === undefined) return node;
    return fillInsert(this.#options, table, idColumns, node, this.#columnNode);
  }

  readonly #columnNode = (column: string): ColumnNode => {
    let columnNode = this.#columnNodes.get(column);
    if (!columnNode) {
      columnNode = ColumnNode.create(column);
      this.#columnNodes.set(column, columnNode);
    }
    return columnNode;
  };
}

/** `schema.table` or `table`, as the tables option names it. */
export function tableName(into: TableNode | undefined): string | undefined {
  if (!into) return undefined;
  const { schema, identifier } = into.table;
  return schema ? `${schema.name}.${identifier.name}` : identifier.name;
}

type Row = PrimitiveValueListNode | ValueListNode;

function fillInsert(
  options: ResolvedOptions,
  table: string,
  idColumns: readonly string[],
  node: InsertQueryNode,
  columnNode: (column: string) => ColumnNode,
): InsertQueryNode {
  const columns = node.columns ?? NO_COLUMNS;
  if (node.values === undefined) {
    if (!node.defaultValues) return node;
    // `defaultValues()` inserts one row: it becomes that row with its ids, the rest still defaulted.
    const ids = takeIds(options.generator, idColumns.length);
    return InsertQueryNode.cloneWith(node, {
      columns: idColumns.map(columnNode),
      values: valuesNode([primitiveValueList(ids)]),
      defaultValues: false,
    });
  }
  const width = idColumns.length;
  // Where each snowflake column is in the column list; -1 where no row names it.
  const indexes: number[] = new Array(width);
  let addedCount = 0;
  for (let c = 0; c < width; c++) {
    indexes[c] = columnIndex(columns, idColumns[c]!);
    if (indexes[c] === -1) addedCount++;
  }
  if (!ValuesNode.is(node.values)) {
    const missing = addedCount === 0 ? undefined : idColumns[indexes.indexOf(-1)]!;
    if (missing === undefined) return node; // INSERT ... SELECT that selects the ids itself
    throw new UnfillableInsertError(
      table,
      missing,
      `INSERT ... SELECT into "${table}" leaves out its snowflake column "${missing}": the rows come from the database, so the plugin has no row to fill before the INSERT. Select the ids as well (copying keys from another table), or insert with values()`,
    );
  }
  const rows = node.values.values;
  // First every caller value is checked (a refusal takes no id), then the ids are taken at once.
  // A column no row names is left out of every row (the rule's first case: each row gets an id
  // there, added below). Slots are row * width + column: plain numbers, no allocation per row.
  const slots: number[] = [];
  if (addedCount < width) {
    for (let c = 0; c < width; c++) {
      const column = idColumns[c]!;
      if (indexes[c] === -1) continue;
      for (let r = 0; r < rows.length; r++) {
        const value = callerValue(rows[r]!, indexes[c]!, table, column, rows.length, r);
        if (generateOrKeep(value, () => argumentName(table, column, rows.length, r)) === 'generate') {
          slots.push(r * width + c);
        }
      }
    }
  }
  const generated = addedCount * rows.length + slots.length;
  if (generated === 0) return node;
  const ids = takeIds(options.generator, generated);
  // The id columns no row names, added after the named columns in this order: their ids come first,
  // row by row, then those of the named columns' empty slots (a slot is only ever in a named
  // column, at that column's own place).
  const named = columns.length;
  let next = 0;
  const copies: unknown[][] = new Array(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const values = rows[r]!.values;
    const copy: unknown[] = new Array(named + addedCount);
    for (let i = 0; i < values.length; i++) copy[i] = values[i];
    for (let c = 0, a = named; c < width; c++) if (indexes[c] === -1) copy[a++] = ids[next++];
    copies[r] = copy;
  }
  for (let k = 0; k < slots.length; k++) {
    const r = (slots[k]! / width) | 0;
    copies[r]![indexes[slots[k]! % width]!] = ids[next++];
  }
  const filled: OperationNode[] = new Array(rows.length);
  for (let r = 0; r < rows.length; r++) {
    filled[r] = PrimitiveValueListNode.is(rows[r]!) ? primitiveValueList(copies[r]!) : valueList(copies[r]!);
  }
  let allColumns = columns;
  if (addedCount > 0) {
    // A spread, not slice(): Kysely freezes its lists, and slice() of a frozen array takes V8's
    // slow path, about 5000 instructions for four columns against 100.
    const list: ColumnNode[] = [...columns];
    for (let c = 0; c < width; c++) if (indexes[c] === -1) list.push(columnNode(idColumns[c]!));
    allColumns = list;
  }
  // Not InsertQueryNode.cloneWith, which freezes the copy (see below).
  return { ...node, columns: allColumns, values: valuesNode(filled) };
}

const NO_COLUMNS: readonly ColumnNode[] = [];

/** Where `column` is in the INSERT's column list, or -1. */
function columnIndex(columns: readonly ColumnNode[], column: string): number {
  for (let i = 0; i < columns.length; i++) if (columns[i]!.column.name === column) return i;
  return -1;
}

// The nodes below are built here without Kysely's `create`, which copies and freezes each list:
// they live only until Kysely compiles this query (the builder keeps its own tree), and the copies
// and freezes cost more than the rest of the fill.

/** The VALUES of the filled rows. */
function valuesNode(rows: readonly OperationNode[]): ValuesNode {
  return { kind: 'ValuesNode', values: rows as ValuesNode['values'] };
}

/**
 * A row of value nodes (Kysely gives a row that leaves a column out a default node there): each
 * id filled in, the only bare value there, becomes a value node.
 */
function valueList(values: unknown[]): ValueListNode {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v === 'bigint') values[i] = ValueNode.create(v);
  }
  return { kind: 'ValueListNode', values: values as OperationNode[] };
}

/** A row of plain values. */
function primitiveValueList(values: readonly unknown[]): PrimitiveValueListNode {
  return { kind: 'PrimitiveValueListNode', values };
}

/** How an error names a caller's value: `players.id` for one row, `players[3].id` among many. */
function argumentName(table: string, column: string, rowCount: number, r: number): string {
  return rowCount === 1 ? `${table}.${column}` : `${table}[${r}].${column}`;
}

/** What the caller put in the column: a value, or undefined when the row leaves it out. */
function callerValue(
  row: Row,
  index: number,
  table: string,
  column: string,
  rowCount: number,
  r: number,
): unknown {
  if (index === -1) return undefined;
  if (PrimitiveValueListNode.is(row)) return row.values[index];
  const value = row.values[index];
  if (value === undefined || DefaultInsertValueNode.is(value)) return undefined;
  if (ValueNode.is(value)) return value.value;
  throw new UnfillableInsertError(
    table,
    column,
    `"${argumentName(table, column, rowCount, r)}" holds an SQL expression (${value.kind}); the plugin cannot check it against the rule for ids: pass a bigint in 1..2^63-1, or leave the column out to have one generated`,
  );
}

/** Refuses what is not a row object, before any id is taken. */
export function assertRowObjects(table: string, rows: readonly unknown[]): void {
  rows.forEach((row, i) => {
    if (row === null || typeof row !== 'object' || Array.isArray(row)) {
      throw new InvalidArgumentError(`rows[${i}]`, `a row object to insert into "${table}"`, row);
    }
  });
}
