import type { PrismaDataModel } from './prisma-data-model.js';

/** The name of the file the generator writes into its `output` directory. */
export const DATA_MODEL_FILE = 'data-model.ts';

/**
 * The TypeScript module the `snowkey-prisma-generator` generator writes: the schema's models as a
 * {@link PrismaDataModel} (the parts of the DMMF that snowkey reads), exported as `dataModel`.
 * It imports nothing, so it compiles in any module format.
 */
export function dataModelSource(datamodel: PrismaDataModel): string {
  const models = datamodel.models.map((model) => ({
    name: model.name,
    fields: model.fields.map((f) =>
      f.kind === 'object'
        ? {
            name: f.name,
            kind: f.kind,
            type: f.type,
            relationName: f.relationName ?? null,
            relationFromFields: [...(f.relationFromFields ?? [])],
          }
        : { name: f.name, kind: f.kind, type: f.type },
    ),
  }));
  const body = models
    .map((m) => {
      const fields = m.fields.map((f) => `        ${JSON.stringify(f)},`).join('\n');
      return `    {\n      "name": ${JSON.stringify(m.name)},\n      "fields": [\n${fields}\n      ]\n    },`;
    })
    .join('\n');
  return `// Written by @snowkey/prisma's generator (snowkey-prisma-generator) at \`prisma generate\`: the
// schema's data model for snowkey's \`dataModel\` option. Do not edit; it is written again each time.
export const dataModel = {
  "models": [
${body}
  ]
};
`;
}
