import { packageConfig } from '../../scripts/tsup.config';

export default [
  packageConfig({ clean: ['!generator.js'] }),
  // The generator is run, never imported: bin/snowkey-prisma-generator.js loads dist/generator.js,
  // so it is one ESM file without declarations. The library build's clean leaves it to this one.
  packageConfig({
    entry: ['src/generator.ts'],
    format: ['esm'],
    dts: false,
    clean: false,
    onSuccess: undefined,
  }),
];
