// The `snowkey-prisma-generator` Prisma generator: at `prisma generate`, Prisma hands it the
// schema's DMMF, and it writes `data-model.ts` into its `output` directory for the `dataModel`
// option of `snowkey()` and `snowkeyClient()`. Its block in schema.prisma:
//
//   generator snowkey {
//     provider = "snowkey-prisma-generator"
//     output   = "../src/generated/snowkey"
//   }
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
// A CommonJS module whose exports Node's ESM loader cannot list: imported whole.
import generatorHelper from '@prisma/generator-helper';
import { InvalidArgumentError } from '@snowkey/core';
import { DATA_MODEL_FILE, dataModelSource } from './data-model-source.js';
import type { PrismaDataModel } from './prisma-data-model.js';

/** What the generator reads of the options Prisma sends (`GeneratorOptions`). */
interface Options {
  readonly generator: { readonly output: { readonly value: string | null } | null };
  readonly dmmf: { readonly datamodel: PrismaDataModel };
}

generatorHelper.generatorHandler({
  onManifest: () => ({ prettyName: 'snowkey data model', requiresGenerators: [] }),
  onGenerate: async (options) => {
    const { generator, dmmf } = options as unknown as Options;
    const output = generator.output?.value;
    if (!output) {
      throw new InvalidArgumentError(
        'output',
        'the directory to write data-model.ts into, in the generator block (output = "../src/generated/snowkey")',
        output,
      );
    }
    await mkdir(output, { recursive: true });
    await writeFile(join(output, DATA_MODEL_FILE), dataModelSource(dmmf.datamodel));
  },
});
