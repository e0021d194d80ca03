import { defineConfig, type Options } from 'tsup';

/** One build recipe for every package: ESM + CJS + declarations, from src/index.ts (and any extra entries). */
export function packageConfig(extra: Partial<Options> = {}) {
  return defineConfig({
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    splitting: false,
    treeshake: true,
    ...extra,
  });
}
