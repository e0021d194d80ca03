import type { IdGenerator } from '@snowkey/core';
import { callerIdAction, takeIds } from '@snowkey/core/adapter';
import type { WritePlan } from './data-model.js';

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
   * The arguments with every missing snowflake id filled. The caller's objects are never
   * changed (a reused input object must get a new id each time); only what changed is copied.
   */
  fill(model: string, operation: string, args: unknown): unknown;
}

/** Builds the filler for a checked plan. */
export function createIdFiller(plan: WritePlan, generator: IdGenerator): IdFiller {
  const nextIds = (count: number): bigint[] => takeIds(generator, count);

  /**
   * A create input of `model`, in the order Prisma inserts the rows, so rows inserted first get
   * the smaller ids: the parents it creates through its foreign-key relations, then its own ids,
   * then the rows created under it.
   */
  function fillCreate(model: string, data: unknown): unknown {
    const m = plan.get(model);
    if (!m || !isObject(data)) return data;
    let out = fillRelations(model, data, true, (field) => m.parentRelations.has(field));
    const missing = m.snowflakeFields.filter((f) => isMissing(model, f, data[f]));
    if (missing.length) {
      if (out === data) out = { ...data };
      const ids = nextIds(missing.length);
      missing.forEach((f, i) => {
        out[f] = ids[i];
      });
    }
    return fillRelations(model, out, out === data, (field) => !m.parentRelations.has(field));
  }

  /** Rows of a `createMany` (an object or an array): flat, since createMany takes no relations. */
  function fillRows(model: string, rows: unknown): unknown {
    const fields = plan.get(model)?.snowflakeFields ?? [];
    if (!fields.length) return rows;
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
    if (!slots.length) return rows;
    const ids = nextIds(slots.length);
    // Object.assign, not a spread: the same copy at a tenth of the cost, and every copy keeps its
    // row's own property order.
    const out = list.map((row) => (isObject(row) ? Object.assign({}, row) : row)) as Data[];
    for (let k = 0; k < slots.length; k++) {
      const slot = slots[k]!;
      out[(slot / width) | 0]![fields[slot % width]!] = ids[k];
    }
    return Array.isArray(rows) ? out : out[0];
  }

  /** An update input of `model`: no ids of its own, but its relations may create rows. */
  function fillUpdate(model: string, data: unknown): unknown {
    return isObject(data) ? fillRelations(model, data, true, () => true) : data;
  }

  /** Fills the nested writes of the relation fields `which` selects; copies `data` first if `copyOnWrite`. */
  function fillRelations(
    model: string,
    data: Data,
    copyOnWrite: boolean,
    which: (field: string) => boolean,
  ): Data {
    const m = plan.get(model)!;
    let out = data;
    for (const [field, target] of m.relations) {
      if (!which(field)) continue;
      const ops = data[field];
      if (ops === undefined) continue;
      const filled = fillNestedWrites(target, ops);
      if (filled === ops) continue;
      if (copyOnWrite && out === data) out = { ...data };
      out[field] = filled;
    }
    return out;
  }

  /** The nested writes under one relation field, whose related model is `target`. */
  function fillNestedWrites(target: string, ops: unknown): unknown {
    if (!isObject(ops)) return ops;
    const out: Data = { ...ops };
    if (ops.create !== undefined) out.create = each(ops.create, (c) => fillCreate(target, c));
    if (isObject(ops.createMany))
      out.createMany = withKey(ops.createMany, 'data', (d) => fillRows(target, d));
    if (ops.connectOrCreate !== undefined) {
      out.connectOrCreate = each(ops.connectOrCreate, (c) =>
        withKey(c, 'create', (d) => fillCreate(target, d)),
      );
    }
    if (ops.upsert !== undefined) {
      out.upsert = each(ops.upsert, (u) =>
        withKey(
          withKey(u, 'create', (d) => fillCreate(target, d)),
          'update',
          (d) => fillUpdate(target, d),
        ),
      );
    }
    if (ops.update !== undefined) {
      out.update = each(ops.update, (u) =>
        isUpdateWrapper(target, u) ? withKey(u, 'data', (d) => fillUpdate(target, d)) : fillUpdate(target, u),
      );
    }
    return Object.keys(out).some((k) => out[k] !== ops[k]) ? out : ops;
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
          return withKey(args, 'data', (d) => fillCreate(model, d));
        case 'createMany':
        case 'createManyAndReturn':
          return withKey(args, 'data', (d) => fillRows(model, d));
        case 'upsert':
          return withKey(
            withKey(args, 'create', (d) => fillCreate(model, d)),
            'update',
            (d) => fillUpdate(model, d),
          );
        case 'update':
          return withKey(args, 'data', (d) => fillUpdate(model, d));
        default:
          return args;
      }
    },
  };
}

function isObject(value: unknown): value is Data {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Applies `fn` to a value or to each element of an array of values; same reference when nothing changed. */
function each(value: unknown, fn: (v: unknown) => unknown): unknown {
  if (!Array.isArray(value)) return fn(value);
  const mapped = value.map(fn);
  return mapped.some((v, i) => v !== value[i]) ? mapped : value;
}

/** `obj` with `obj[key]` replaced by `fn(obj[key])`, copied only when that changes it. */
function withKey(obj: unknown, key: string, fn: (v: unknown) => unknown): unknown {
  if (!isObject(obj) || obj[key] === undefined) return obj;
  const next = fn(obj[key]);
  return next === obj[key] ? obj : { ...obj, [key]: next };
}
