import { SnowflakeFieldError } from './errors.js';

/**
 * The models of a Prisma schema by name, with the parts of their fields that snowkey reads: read
 * from the `dataModel` option (see `readPrismaDataModel`), or from the client itself (see
 * `prisma-internals.ts`).
 */
export interface ModelDefinitions {
  readonly models: Readonly<
    Record<
      string,
      { readonly fields: readonly { name: string; kind: string; type: string; relationName?: string }[] }
    >
  >;
}

/** What the extension knows about one model: the fields it fills and the relations it walks into. */
export interface ModelPlan {
  readonly snowflakeFields: readonly string[];
  /** Every field name, scalar and relation. */
  readonly fieldNames: ReadonlySet<string>;
  /** Relation field name to the related model's name. */
  readonly relations: ReadonlyMap<string, string>;
  /**
   * The relation fields that hold this model's foreign keys: a row created through one is a
   * parent, inserted by Prisma before this model's row. Empty when the data model does not say
   * which side holds the key (the client's own, read when no `dataModel` is given).
   */
  readonly parentRelations: ReadonlySet<string>;
}

/** Every model of the client, by name, so nested writes can be followed through any model. */
export type WritePlan = ReadonlyMap<string, ModelPlan>;

/**
 * Checks `models` against the data model and builds the plan the query hook follows. Every
 * named model and field must exist and every field must be a `BigInt` scalar.
 */
export function buildWritePlan(
  dataModel: ModelDefinitions,
  models: ReadonlyMap<string, readonly string[]>,
  parentSides?: ReadonlyMap<string, ReadonlySet<string>>,
): WritePlan {
  const known = Object.keys(dataModel.models).sort();
  for (const [model, fields] of models) {
    const definition = dataModel.models[model];
    if (!definition) {
      throw new SnowflakeFieldError(
        model,
        undefined,
        `a model of this Prisma client: one of ${known.join(', ')}`,
        model,
      );
    }
    const bigints = definition.fields
      .filter((f) => f.kind === 'scalar' && f.type === 'BigInt')
      .map((f) => f.name);
    for (const field of fields) {
      const found = definition.fields.find((f) => f.name === field);
      if (found?.kind !== 'scalar' || found.type !== 'BigInt') {
        const choice = bigints.length ? `one of: ${bigints.join(', ')}` : 'the model has none';
        const what = found
          ? `; "${field}" is a ${found.kind === 'scalar' ? found.type : 'relation'} field`
          : '';
        throw new SnowflakeFieldError(
          model,
          field,
          `a BigInt scalar field of model ${model} (${choice}${what})`,
          field,
        );
      }
    }
  }
  const plan = new Map<string, ModelPlan>();
  for (const [name, definition] of Object.entries(dataModel.models)) {
    const relations = new Map<string, string>();
    for (const f of definition.fields) if (f.kind === 'object') relations.set(f.name, f.type);
    plan.set(name, {
      snowflakeFields: models.get(name) ?? [],
      fieldNames: new Set(definition.fields.map((f) => f.name)),
      relations,
      parentRelations: parentSides?.get(name) ?? new Set(),
    });
  }
  return plan;
}

/**
 * The models whose writes can hold a snowflake id, by name: those with snowflake fields, and every
 * model from which a chain of relations leads to one (a nested write through them can create such
 * a row). Prisma's relations have both sides, so these are the schema's models connected to a
 * snowflake model. A write to any other model can create no row with an id to fill: it is handed
 * to Prisma as it is, with nothing of snowkey's on its way.
 */
export function filledModels(plan: WritePlan): string[] {
  const reached = new Set([...plan].filter(([, m]) => m.snowflakeFields.length > 0).map(([name]) => name));
  for (let grew = true; grew; ) {
    grew = false;
    for (const [name, m] of plan) {
      if (!reached.has(name) && [...m.relations.values()].some((target) => reached.has(target))) {
        reached.add(name);
        grew = true;
      }
    }
  }
  return [...plan.keys()].filter((name) => reached.has(name));
}

/** The name of a model's delegate on the client: Prisma's, the model's name with its first letter in lower case. */
export function delegateName(model: string): string {
  return model.charAt(0).toLowerCase() + model.slice(1);
}
