import { UpsertReadBackError } from '@snowkey/core';
import { type Model, type ModelStatic, Op, type Transaction, type WhereOptions } from 'sequelize';
import { snowflakeAttributes } from './snowflake-attributes.js';

interface UpsertOptions {
  readonly returning?: unknown;
  readonly transaction?: Transaction | null;
  readonly conflictFields?: readonly string[];
}

/**
 * After `Model.upsert`, puts the ids the database holds on the returned instance, which Sequelize
 * builds from the values it sent (an updated row would carry an id never inserted).
 */
export async function readBackUpsert(record: Model, options: UpsertOptions): Promise<void> {
  // PostgreSQL with `returning` returns the stored row already; elsewhere the row is read back by
  // the keys an upsert can conflict on, in the upsert's transaction.
  const model = record.constructor as ModelStatic<Model>;
  const ids = snowflakeAttributes(model);
  if (ids.length === 0) return;
  if (model.sequelize?.getDialect() === 'postgres' && options.returning !== false) return;
  const keys = conflictKeys(model, options.conflictFields);
  const where = keys
    .map((attributes) => Object.fromEntries(attributes.map((a) => [a, record.getDataValue(a)])))
    .filter((w) => Object.values(w).every((v) => v !== undefined && v !== null));
  const found = await model.findAll({
    where: { [Op.or]: where } as WhereOptions,
    attributes: ids.map((a) => a.name),
    transaction: options.transaction ?? null,
    raw: true,
  });
  if (found.length !== 1) {
    throw new UpsertReadBackError(
      model.name,
      0,
      keys.map((k) => k.join('+')),
      found.length,
    );
  }
  const row = found[0] as unknown as Record<string, unknown>;
  for (const { name } of ids) record.setDataValue(name, row[name] as never);
}

/** Each key (attribute names) an upsert of `model` can conflict on. */
function conflictKeys(model: ModelStatic<Model>, conflictFields?: readonly string[]): string[][] {
  const fieldToAttribute = (field: string) =>
    (model as unknown as { fieldRawAttributesMap: Record<string, { fieldName: string }> })
      .fieldRawAttributesMap[field]?.fieldName ?? field;
  if (conflictFields && conflictFields.length > 0) return [conflictFields.map(fieldToAttribute)];
  const unique = Object.values(
    (model as unknown as { uniqueKeys: Record<string, { fields: string[] }> }).uniqueKeys ?? {},
  ).map((k) => k.fields.map(fieldToAttribute));
  const indexes = ((model.options as { indexes?: { unique?: boolean; fields?: unknown[] }[] }).indexes ?? [])
    .filter((i) => i.unique && Array.isArray(i.fields) && i.fields.every((f) => typeof f === 'string'))
    .map((i) => (i.fields as string[]).map(fieldToAttribute));
  return [[...model.primaryKeyAttributes], ...unique, ...indexes];
}
