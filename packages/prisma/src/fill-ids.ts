import type { IdGenerator } from '@snowkey/core';
import { generateOrKeep, takeId, takeIds } from '@snowkey/core/adapter';
import type { ModelPlan, WritePlan } from './data-model.js';

type Data = Record<string, unknown>;

/**
 * What the caller put in a snowflake field, by core's one rule (`generateOrKeep`): absent gets an
 * id, a bigint in 1..2^63-1 is kept, anything else is refused, a Number included (Prisma's input
 * types take `bigint | number`, and a Number past 2^53 has already been rounded to a neighbour's
 * id). `null` is passed on: Prisma's runtime data model does not say which fields are nullable,
 * and its types admit `null` only for nullable ones, where it is the caller's NULL; Prisma's own
 * validation refuses it anywhere else.
 */
function isMissing(model: string, field: string, value: unknown): boolean {
  // The name is built only for an error: createMany asks this once per row.
  return generateOrKeep(value, () => `${model}.${field}`, true) === 'generate';
}

/**
 * The model operations whose arguments can create rows: at the top (`create`, `createMany`,
 * `createManyAndReturn`, `upsert`) or nested (`update`, and the others' nested writes).
 */
export const FILLED_OPERATIONS = ['create', 'createMany', 'createManyAndReturn', 'upsert', 'update'] as const;

/** One of {@link FILLED_OPERATIONS}. */
export type FilledOperation = (typeof FILLED_OPERATIONS)[number];

const FILLED: ReadonlySet<PropertyKey> = new Set(FILLED_OPERATIONS);

/** Whether `operation` (a model method's name) is one of {@link FILLED_OPERATIONS}. */
export function isFilledOperation(operation: PropertyKey): operation is FilledOperation {
  return FILLED.has(operation);
}

/** Fills snowflake ids into the arguments of one model operation, at every depth of nesting. */
export interface IdFiller {
  /**
   * The arguments with every missing snowflake id filled. The application's objects are never
   * changed (a reused input object must get a new id each time): with `copy: false` the ids are
   * written into `args` itself, which must then be a copy the caller owns (Prisma hands each
   * query-extension callback a deep copy of the arguments, `args` in
   * `query: { $allModels: { create({ args }) } }`); with `copy: true` every object on the way to
   * an id is copied first and the rest is shared, and the copy is returned.
   */
  fill(model: string, operation: string, args: unknown): unknown;
}

/** Where an object sits in the arguments: its parent (an object or an array) and its key there. */
type Holder = Record<string | number, unknown>;

/**
 * Builds the filler for a checked plan. `copy` says whether it copies what it writes into
 * (`snowkeyClient`) or writes into the arguments it is given (the extension, which gets Prisma's copy).
 */
export function createIdFiller(plan: WritePlan, generator: IdGenerator, copy: boolean): IdFiller {
  /**
   * The object at `holder[key]`, made writable: in copy mode a shallow copy put in its place
   * (the holder is already a copy), else the object itself. Undefined when it is not an object.
   */
  const own = copy
    ? (holder: Holder, key: string | number): Data | undefined => {
        const value = holder[key];
        if (!isObject(value)) return undefined;
        const mine = Object.assign({}, value);
        holder[key] = mine;
        return mine;
      }
    : (holder: Holder, key: string | number): Data | undefined => {
        const value = holder[key];
        return isObject(value) ? value : undefined;
      };

  /** The array at `holder[key]`, made writable as {@link own} does an object (copied in copy mode). */
  function ownList(holder: Holder, key: string): Holder {
    const list = holder[key] as unknown[];
    if (!copy) return list as unknown as Holder;
    const mine = list.slice();
    holder[key] = mine;
    return mine as unknown as Holder;
  }

  /** `fn` on the object at `holder[key]`, or on each object of the array there, each made writable. */
  function eachOwned(holder: Holder, key: string, fn: (value: Data) => void): void {
    const value = holder[key];
    if (!Array.isArray(value)) {
      const mine = own(holder, key);
      if (mine) fn(mine);
      return;
    }
    const list = ownList(holder, key);
    for (let i = 0; i < value.length; i++) {
      const mine = own(list, i);
      if (mine) fn(mine);
    }
  }

  /**
   * A create input of `model`, in the order Prisma inserts the rows, so rows inserted first get
   * the smaller ids: the parents it creates through its foreign-key relations, then its own ids,
   * then the rows created under it.
   */
  function fillCreate(model: string, data: Data): void {
    const m = plan.get(model);
    if (!m) return;
    const walk = m.relations.size > 0;
    if (walk) fillRelations(m, data, PARENTS);
    const fields = m.snowflakeFields;
    if (fields.length === 1) {
      // The usual model: one id field, one id, no array.
      if (isMissing(model, fields[0]!, data[fields[0]!])) data[fields[0]!] = takeId(generator);
    } else if (fields.length > 1) {
      const missing = fields.filter((f) => isMissing(model, f, data[f]));
      const ids = takeIds(generator, missing.length);
      for (let i = 0; i < missing.length; i++) data[missing[i]!] = ids[i];
    }
    if (walk) fillRelations(m, data, CHILDREN);
  }

  /** The rows of a `createMany` at `holder[key]` (an object or an array): flat, createMany takes no relations. */
  function fillRows(model: string, holder: Holder, key: string): void {
    const fields = plan.get(model)?.snowflakeFields ?? [];
    const rows = holder[key];
    if (!fields.length || rows === undefined) return;
    const list: unknown[] = Array.isArray(rows) ? rows : [rows];
    const width = fields.length;
    // First every caller value is checked (a refusal takes no id); slots are row * width + field,
    // plain numbers.
    const slots: number[] = [];
    for (let r = 0; r < list.length; r++) {
      const row = list[r];
      if (!isObject(row)) continue;
      for (let f = 0; f < width; f++) {
        if (isMissing(model, fields[f]!, row[fields[f]!])) slots.push(r * width + f);
      }
    }
    if (!slots.length) return;
    const ids = takeIds(generator, slots.length);
    // In copy mode each row that gets an id is copied once, the list with it.
    const out = Array.isArray(rows) ? ownList(holder, key) : undefined;
    let last = -1;
    let row: Data | undefined;
    for (let k = 0; k < slots.length; k++) {
      const slot = slots[k]!;
      const r = (slot / width) | 0;
      if (r !== last) {
        row = out ? own(out, r) : own(holder, key);
        last = r;
      }
      row![fields[slot % width]!] = ids[k];
    }
  }

  /** An update input of `model`: no ids of its own, but its relations may create rows. */
  function fillUpdate(model: string, data: Data): void {
    const m = plan.get(model);
    if (m && m.relations.size > 0) fillRelations(m, data, ALL);
  }

  /** Fills the nested writes under the relation fields of `data` that `which` selects. */
  function fillRelations(m: ModelPlan, data: Data, which: RelationSide): void {
    for (const [field, target] of m.relations) {
      if (which !== ALL && m.parentRelations.has(field) !== (which === PARENTS)) continue;
      if (!isObject(data[field])) continue;
      fillNestedWrites(target, own(data, field)!);
    }
  }

  /** The nested writes under one relation field, whose related model is `target`. */
  function fillNestedWrites(target: string, ops: Data): void {
    if (ops.create !== undefined) eachOwned(ops, 'create', (c) => fillCreate(target, c));
    if (isObject(ops.createMany)) fillRows(target, own(ops, 'createMany')!, 'data');
    if (ops.connectOrCreate !== undefined) {
      eachOwned(ops, 'connectOrCreate', (c) => {
        const create = own(c, 'create');
        if (create) fillCreate(target, create);
      });
    }
    if (ops.upsert !== undefined) {
      eachOwned(ops, 'upsert', (u) => {
        const create = own(u, 'create');
        if (create) fillCreate(target, create);
        const update = own(u, 'update');
        if (update) fillUpdate(target, update);
      });
    }
    if (ops.update !== undefined) {
      eachOwned(ops, 'update', (u) => {
        if (!isUpdateWrapper(target, u)) return fillUpdate(target, u);
        const data = own(u, 'data');
        if (data) fillUpdate(target, data);
      });
    }
  }

  /**
   * A to-many `update` is always `{ where, data }`; a to-one `update` is either the data itself
   * or `{ where?, data }`. Only the wrapper has nothing but `where` and `data`, unless the model
   * has a field named `data` (then the wrapper is the form that also has `where`).
   */
  function isUpdateWrapper(target: string, u: Data): boolean {
    if (!('data' in u)) return false;
    if (!Object.keys(u).every((k) => k === 'where' || k === 'data')) return false;
    return 'where' in u || !plan.get(target)?.fieldNames.has('data');
  }

  return {
    fill(model, operation, args) {
      if (!isObject(args) || !isFilledOperation(operation)) return args;
      const root: Data = copy ? Object.assign({}, args) : args;
      switch (operation) {
        case 'create': {
          const data = own(root, 'data');
          if (data) fillCreate(model, data);
          break;
        }
        case 'createMany':
        case 'createManyAndReturn':
          fillRows(model, root, 'data');
          break;
        case 'upsert': {
          const create = own(root, 'create');
          if (create) fillCreate(model, create);
          const update = own(root, 'update');
          if (update) fillUpdate(model, update);
          break;
        }
        case 'update': {
          const data = own(root, 'data');
          if (data) fillUpdate(model, data);
          break;
        }
      }
      return root;
    },
  };
}

/** Which relation fields of a create input to walk: those creating its parents, its children, or all. */
type RelationSide = 0 | 1 | 2;
const PARENTS: RelationSide = 0;
const CHILDREN: RelationSide = 1;
const ALL: RelationSide = 2;

function isObject(value: unknown): value is Data {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
