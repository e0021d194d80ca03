import { defineConfig, type Options } from 'tsup';

/**
 * One build recipe for every package: ESM + CJS + declarations, from src/index.ts (and any extra
 * entries). With several entries, the modules they share go into shared chunks (in both formats),
 * so there is one copy of each: an error class is the same class whichever entry threw it.
 */
export function packageConfig(extra: Partial<Options> = {}) {
  return defineConfig({
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: false,
    minifyWhitespace: true,
    minifySyntax: true,
    clean: true,
    target: 'node20',
    splitting: true,
    treeshake: true,
    ...extra,
  });
}
