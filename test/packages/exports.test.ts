import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { declaredNames } from './public-names.js';
import { PUBLIC_SURFACE } from './public-surface.js';

// Checks what a user installs: the built ESM and CJS entry points, resolved through each
// package's exports map by Node itself (a child process without the dev-source condition).

const root = fileURLToPath(new URL('../../', import.meta.url));
const packagesDir = join(root, 'packages');

interface Manifest {
  name: string;
  type?: string;
  main?: string;
  module?: string;
  types?: string;
  bin?: string | Record<string, string>;
  exports: Record<string, unknown>;
}

const packages = readdirSync(packagesDir)
  .filter((d) => existsSync(join(packagesDir, d, 'package.json')))
  .map((d) => {
    const dir = join(packagesDir, d);
    return { dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest };
  });

/** Every string in an exports map, with the conditions that lead to it. */
function leaves(value: unknown, path: string[] = []): Array<{ path: string[]; target: string }> {
  if (typeof value === 'string') return [{ path, target: value }];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, k]));
}

/** Every object in an exports map (condition objects and the subpath map itself). */
function objects(
  value: unknown,
  path: string[] = [],
): Array<{ path: string[]; value: Record<string, unknown> }> {
  if (value === null || typeof value !== 'object') return [];
  const obj = value as Record<string, unknown>;
  return [{ path, value: obj }, ...Object.entries(obj).flatMap(([k, v]) => objects(v, [...path, k]))];
}

/** The declaration extension that matches a JavaScript file's (`.js` follows the package's "type"). */
function declarationFor(js: string): string {
  if (js.endsWith('.cjs')) return '.d.cts';
  if (js.endsWith('.mjs')) return '.d.mts';
  return '.d.ts';
}

/**
 * Runs an ESM `script` in a plain Node process (no dev-source condition, no loaders: the published
 * files only) with `args`, and returns the JSON of its last line of output.
 */
function inPlainNode(script: string, ...args: string[]): unknown {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script, ...args], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').pop()!);
}

/** Loads a package by name in a plain Node process: import() and require(), as a user would. */
function loadBothWays(name: string) {
  const script = `
    import { createRequire } from 'node:module';
    const name = process.argv[1];
    const require = createRequire(process.cwd() + '/noop.js');
    const shape = (m) => Object.fromEntries(Object.keys(m).filter((k) => k !== '__esModule').sort().map((k) => [k, typeof m[k]]));
    const esm = await import(name);
    const cjs = require(name);
    console.log(JSON.stringify({ esm: shape(esm), cjs: shape(cjs), esmFile: import.meta.resolve(name), cjsFile: require.resolve(name) }));
  `;
  return inPlainNode(script, name) as {
    esm: Record<string, string>;
    cjs: Record<string, string>;
    esmFile: string;
    cjsFile: string;
  };
}

beforeAll(() => {
  // `pnpm test` builds first; a lone `vitest run test/packages` builds what is missing.
  for (const { dir, manifest } of packages) {
    if (!existsSync(join(dir, 'dist'))) {
      execFileSync('pnpm', ['--filter', manifest.name, 'build'], { cwd: root, stdio: 'pipe' });
    }
  }
}, 300_000);

describe.each(packages.map((p) => [p.manifest.name, p] as const))('package %s', (_, { dir, manifest }) => {
  test('GIVEN its package.json THEN every path of the exports map, main, module, types and bin exists', () => {
    const paths = [
      ...leaves(manifest.exports).map((l) => l.target),
      ...[manifest.main, manifest.module, manifest.types].filter((p): p is string => typeof p === 'string'),
      ...(typeof manifest.bin === 'string' ? [manifest.bin] : Object.values(manifest.bin ?? {})),
    ];
    expect(paths.length).toBeGreaterThan(0);
    const missing = paths.filter((p) => !existsSync(join(dir, p)));
    expect(missing).toEqual([]);
  });

  test('GIVEN the exports map THEN "types" comes first in every condition, and its declaration matches the module format', () => {
    const dot = manifest.exports['.'] as Record<string, Record<string, string>>;
    expect(Object.keys(dot.import ?? {})).toEqual(['types', 'default']);
    expect(Object.keys(dot.require ?? {})).toEqual(['types', 'default']);
    for (const { path, value } of objects(manifest.exports)) {
      const keys = Object.keys(value);
      if (keys.includes('types')) expect(keys[0], `exports.${path.join('.')}`).toBe('types');
      if (typeof value.default === 'string' && /\.[cm]?js$/.test(value.default)) {
        expect(typeof value.types, `exports.${path.join('.')} has no "types"`).toBe('string');
        expect(value.types as string).toMatch(
          new RegExp(`${declarationFor(value.default).replace(/\./g, '\\.')}$`),
        );
      }
    }
  });

  test('GIVEN its ESM build THEN an import attribute is written `with`, never `assert` (which Node 22 refuses)', () => {
    const dist = join(dir, 'dist');
    const files = existsSync(dist) ? readdirSync(dist).filter((f) => /\.m?js$/.test(f)) : [];
    const withAssert = files.filter((f) =>
      /\bassert\s*\{\s*type\s*:/.test(readFileSync(join(dist, f), 'utf8')),
    );
    expect(withAssert).toEqual([]);
  });

  test('GIVEN a bin THEN it starts with a node shebang', () => {
    const bins = typeof manifest.bin === 'string' ? [manifest.bin] : Object.values(manifest.bin ?? {});
    for (const bin of bins) expect(readFileSync(join(dir, bin), 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
  });

  // Data files (core's ./vectors.json) are loaded as JSON below, not as modules with names.
  const entries = Object.keys(manifest.exports).filter(
    (subpath) => subpath !== './package.json' && !subpath.endsWith('.json'),
  );
  const dataFiles = Object.keys(manifest.exports).filter(
    (subpath) => subpath !== './package.json' && subpath.endsWith('.json'),
  );

  test.each(dataFiles)(
    'GIVEN plain Node THEN require() and import() with type json load the data file %s',
    (subpath) => {
      const name = specifier(manifest.name, subpath);
      const script = `
        import { createRequire } from 'node:module';
        const require = createRequire(process.cwd() + '/noop.js');
        const esm = (await import(process.argv[1], { with: { type: 'json' } })).default;
        const cjs = require(process.argv[1]);
        console.log(JSON.stringify({ esm, cjs }));
      `;
      const file = JSON.parse(readFileSync(join(dir, manifest.exports[subpath] as string), 'utf8'));
      expect(inPlainNode(script, name)).toEqual({ esm: file, cjs: file });
    },
  );

  test.each(entries)(
    'GIVEN plain Node THEN import() loads the ESM build of %s, require() the CJS build, and both expose the same names',
    (subpath) => {
      const entry = manifest.exports[subpath] as Record<string, Record<string, string>>;
      const loaded = loadBothWays(specifier(manifest.name, subpath));
      expect(fileURLToPath(loaded.esmFile)).toBe(join(dir, entry.import!.default!));
      expect(loaded.cjsFile).toBe(join(dir, entry.require!.default!));
      expect(loaded.cjs).toEqual(loaded.esm);
    },
  );

  test.each(entries)(
    'GIVEN entry %s THEN its run-time names and its type names are exactly the pinned ones',
    (subpath) => {
      const name = specifier(manifest.name, subpath);
      const pinned = PUBLIC_SURFACE[name];
      expect(pinned, `${name} has no pinned surface in test/packages/public-surface.ts`).toBeDefined();
      const entry = manifest.exports[subpath] as Record<string, Record<string, string>>;
      const values = Object.keys(loadBothWays(name).esm).sort();
      const declared = declaredNames(join(dir, entry.import!.types!));
      expect(values).toEqual([...pinned!.values].sort());
      expect(declared.filter((n) => !values.includes(n))).toEqual([...pinned!.types].sort());
      // Every run-time name has its declaration too.
      expect(values.filter((n) => !declared.includes(n))).toEqual([]);
    },
  );
});

test("GIVEN core's entry points THEN they share one copy of core: an error thrown through @snowkey/core/adapter is an instance of @snowkey/core's class, in ESM and in CJS", () => {
  const script = `
    import { createRequire } from 'node:module';
    const require = createRequire(process.cwd() + '/noop.js');
    const thrown = (adapter) => {
      try {
        adapter.takeId({ nextId: () => 0n });
      } catch (error) {
        return error;
      }
    };
    const esm = thrown(await import('@snowkey/core/adapter')) instanceof (await import('@snowkey/core')).InvalidArgumentError;
    const cjs = thrown(require('@snowkey/core/adapter')) instanceof require('@snowkey/core').InvalidArgumentError;
    console.log(JSON.stringify({ esm, cjs }));
  `;
  expect(inPlainNode(script)).toEqual({ esm: true, cjs: true });
});

test('GIVEN the pinned surface THEN it names no entry point that does not exist', () => {
  const existing = packages.flatMap(({ manifest }) =>
    Object.keys(manifest.exports)
      .filter((subpath) => subpath !== './package.json' && !subpath.endsWith('.json'))
      .map((subpath) => specifier(manifest.name, subpath)),
  );
  expect(Object.keys(PUBLIC_SURFACE).filter((name) => !existing.includes(name))).toEqual([]);
});

/** `@snowkey/core` + `./adapter` -> `@snowkey/core/adapter`. */
function specifier(name: string, subpath: string): string {
  return subpath === '.' ? name : `${name}/${subpath.slice(2)}`;
}
