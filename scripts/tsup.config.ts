import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig, type Options } from 'tsup';

/**
 * tsup's tree-shaking pass (Rollup 4) writes an import attribute as `assert { type: "json" }`,
 * which Node 22 refuses; the adapters import their peer's package.json with `with`, as Node 20.19+
 * and the bundlers read it.
 */
function importAttributesWithWith(outDir: string): void {
  for (const file of readdirSync(outDir)) {
    if (!/\.(js|mjs)$/.test(file)) continue;
    const path = join(outDir, file);
    const code = readFileSync(path, 'utf8');
    const fixed = code.replace(/\bassert\s*\{\s*type\s*:\s*(["'])json\1\s*\}/g, 'with { type: "json" }');
    if (fixed !== code) writeFileSync(path, fixed);
  }
}

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
    target: 'node20.19',
    splitting: true,
    treeshake: true,
    // Node 20.19 reads `import ... with { type: 'json' }`; esbuild drops the attribute for `node20`.
    onSuccess: async () => importAttributesWithWith(extra.outDir ?? 'dist'),
    ...extra,
  });
}
