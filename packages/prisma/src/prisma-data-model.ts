import { InvalidArgumentError } from '@snowkey/core';
import type { ModelDefinitions } from './data-model.js';

/**
 * A Prisma schema's data model, in the shape of the DMMF that Prisma hands its generators
 * (`options.dmmf.datamodel`): what `prisma generate` writes through the `snowkey-prisma-generator`
 * generator as `dataModel`, and what a full DMMF document's `datamodel` satisfies too. Only the
 * fields snowkey reads are listed; on a relation field, `relationFromFields` names the foreign-key
 * fields when this side holds the key (an empty list on the other side).
 */
export interface PrismaDataModel {
  readonly models: readonly {
    readonly name: string;
    readonly fields: readonly {
      readonly name: string;
      readonly kind: string;
      readonly type: string;
      readonly relationName?: string | null;
      readonly relationFromFields?: readonly string[] | null;
    }[];
  }[];
}

/** A checked {@link PrismaDataModel}: its models by name, and the relation fields that hold each model's foreign keys. */
export interface ReadDataModel {
  readonly definitions: ModelDefinitions;
  readonly parentSides: ReadonlyMap<string, ReadonlySet<string>>;
}

const EXPECTED =
  'a Prisma data model ({ models: [{ name, fields: [{ name, kind, type, relationFromFields }] }] }), as the snowkey-prisma-generator generator writes it';

/**
 * Checks the shape of the `dataModel` option and reads it: every model has a name and a list of
 * fields, every relation field says in `relationFromFields` whether it holds the foreign key (a
 * DMMF rebuilt from a client's runtime data model does not, so it is refused).
 */
export function readPrismaDataModel(dataModel: unknown): ReadDataModel {
  const models = (dataModel as { models?: unknown } | null)?.models;
  if (typeof dataModel !== 'object' || !Array.isArray(models)) {
    throw new InvalidArgumentError('dataModel', EXPECTED, dataModel);
  }
  const definitions: Record<string, ModelDefinitions['models'][string]> = {};
  const parentSides = new Map<string, ReadonlySet<string>>();
  models.forEach((model: unknown, i) => {
    const { name, fields } = (model ?? {}) as { name?: unknown; fields?: unknown };
    if (typeof name !== 'string' || !Array.isArray(fields)) {
      throw new InvalidArgumentError(
        `dataModel.models[${i}]`,
        'a model with a name and a list of fields',
        model,
      );
    }
    const own = new Set<string>();
    const read = fields.map((field: unknown, j) => {
      const f = (field ?? {}) as PrismaDataModel['models'][number]['fields'][number];
      const where = `dataModel.models[${i}].fields[${j}]`;
      if (typeof f.name !== 'string' || typeof f.kind !== 'string' || typeof f.type !== 'string') {
        throw new InvalidArgumentError(where, `a field of ${name} with a name, kind and type`, field);
      }
      if (f.kind !== 'object') return { name: f.name, kind: f.kind, type: f.type };
      if (!Array.isArray(f.relationFromFields)) {
        throw new InvalidArgumentError(
          `${where}.relationFromFields`,
          `the foreign-key fields of relation ${name}.${f.name} (an array, empty on the side without the key), as a generator's DMMF has them`,
          f.relationFromFields,
        );
      }
      if (f.relationFromFields.length > 0) own.add(f.name);
      return { name: f.name, kind: f.kind, type: f.type, relationName: f.relationName ?? undefined };
    });
    definitions[name] = { fields: read };
    parentSides.set(name, own);
  });
  return { definitions: { models: definitions }, parentSides };
}
