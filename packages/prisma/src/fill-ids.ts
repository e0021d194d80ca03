import type { IdGenerator } from '@snowkey/core';
import { callerIdAction, takeId, takeIds } from '@snowkey/core/adapter';
import type { ModelPlan, WritePlan } from './data-model.js';

type Data = Record<string, unknown>;

/**
 * What the caller put in a snowflake field, by core's one rule (`callerIdAction`): absent gets an
 * id, a bigint in 1..2^63-1 is kept, anything else is refused, a Number included (Prisma's input
 * types take `bigint | number`, and a Number past 2^53 has already been rounded to a neighbour's
 * id). `null` is passed on: Prisma's runtime data model does not say which fields are nullable,
 * and its types admit `null` only for nullable ones, where it is the caller's NULL; Prisma's own
 * validation refuses it anywhere else.
 */
function isMissing(model: string, field: string, value: unknown): boolean {
  // The name is built only for an error: createMany asks this once per row.
  return callerIdAction(value, () => `${model}.${field}`, true) === 'generate';
}

/** Fills snowflake ids into the arguments of one model operation, at every depth of nesting. */
export interface IdFiller {
  /**
   * Writes every missing snowflake id into `args`, in place, and returns it. `args` must be the
   * extension's own copy: Prisma hands each query-extension callback a deep copy of the caller's
   * arguments (`args` in `query: { $allModels: { create({ args }) } }`), so the caller's objects
   * are never changed and a reused input object gets a new id each time. Copying them again here
   * would only double that work.
   */
  fill(model: string, operation: string, args: unknown): unknown;
}

/** Builds the filler for a checked plan. */
export function createIdFiller(plan: WritePlan, generator: IdGenerator): IdFiller {
  /**
   * A create input of `model`, in the order Prisma inserts the rows, so rows inserted first get
   * the smaller ids: the parents it creates through its foreign-key relations, then its own ids,
   * then the rows created under it.
   */
  function fillCreate(model: string, data: unknown): void {
    const m = plan.get(model);
    if (!m || !isObject(data)) return;
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

  /** Rows of a `createMany` (an object or an array): flat, since createMany takes no relations. */
  function fillRows(model: string, rows: unknown): void {
    const fields = plan.get(model)?.snowflakeFields ?? [];
    if (!fields.length) return;
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
    for (let k = 0; k < slots.length; k++) {
      const slot = slots[k]!;
      (list[(slot / width) | 0] as Data)[fields[slot % width]!] = ids[k];
    }
  }

  /** An update input of `model`: no ids of its own, but its relations may create rows. */
  function fillUpdate(model: string, data: unknown): void {
    const m = plan.get(model);
    if (m && m.relations.size > 0 && isObject(data)) fillRelations(m, data, ALL);
  }

  /** Fills the nested writes under the relation fields of `data` that `which` selects. */
  function fillRelations(m: ModelPlan, data: Data, which: RelationSide): void {
    for (const [field, target] of m.relations) {
      if (which !== ALL && m.parentRelations.has(field) !== (which === PARENTS)) continue;
      const ops = data[field];
      if (isObject(ops)) fillNestedWrites(target, ops);
    }
  }

  /** The nested writes under one relation field, whose related model is `target`. */
  function fillNestedWrites(target: string, ops: Data): void {
    if (ops.create !== undefined) each(ops.create, (c) => fillCreate(target, c));
    if (isObject(ops.createMany)) fillRows(target, ops.createMany.data);
    if (ops.connectOrCreate !== undefined) {
      each(ops.connectOrCreate, (c) => {
        if (isObject(c)) fillCreate(target, c.create);
      });
    }
    if (ops.upsert !== undefined) {
      each(ops.upsert, (u) => {
        if (!isObject(u)) return;
        fillCreate(target, u.create);
        fillUpdate(target, u.update);
      });
    }
    if (ops.update !== undefined) {
      each(ops.update, (u) => fillUpdate(target, isUpdateWrapper(target, u) ? u.data : u));
    }
  }

  /**
   * A to-many `update` is always `{ where, data }`; a to-one `update` is either the data itself
   * or `{ where?, data }`. Only the wrapper has nothing but `where` and `data`, unless the model
   * has a field named `data` (then the wrapper is the form that also has `where`).
   */
  function isUpdateWrapper(target: string, u: unknown): u is Data {
    if (!isObject(u) || !('data' in u)) return false;
    if (!Object.keys(u).every((k) => k === 'where' || k === 'data')) return false;
    return 'where' in u || !plan.get(target)?.fieldNames.has('data');
  }

  return {
    fill(model, operation, args) {
      if (!isObject(args)) return args;
      switch (operation) {
        case 'create':
          fillCreate(model, args.data);
          break;
        case 'createMany':
        case 'createManyAndReturn':
          fillRows(model, args.data);
          break;
        case 'upsert':
          fillCreate(model, args.create);
          fillUpdate(model, args.update);
          break;
        case 'update':
          fillUpdate(model, args.data);
          break;
      }
      return args;
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

/** Applies `fn` to a value or to each element of an array of values. */
function each(value: unknown, fn: (v: unknown) => void): void {
  if (Array.isArray(value)) for (const v of value) fn(v);
  else fn(value);
}
