import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { USAGE_ERROR_CODES } from '@snowkey/cli';
import * as core from '@snowkey/core';
import { describe, expect, test } from 'vitest';

// The error codes, read from the source of every package, against the one table that lists them
// (the guide's Errors page, docs/guide/errors.md): a class or code added, renamed or dropped on one side only fails.
// Each class also writes out its `name` as a string, which a user's minifier leaves alone while it
// renames the class; test/browser/minified-names.test.ts runs such a bundle.

const repo = fileURLToPath(new URL('../../', import.meta.url));

interface ErrorClass {
  readonly name: string;
  readonly parent: string;
  readonly code: string | undefined;
  /** The `name` the class declares as a string literal, if it declares one. */
  readonly declaredName: string | undefined;
  readonly file: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

function errorClasses(): ErrorClass[] {
  const found: ErrorClass[] = [];
  for (const pkg of readdirSync(join(repo, 'packages'))) {
    const src = join(repo, 'packages', pkg, 'src');
    let files: string[];
    try {
      files = sourceFiles(src);
    } catch {
      continue;
    }
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/^export class (\w+) extends (\w+) \{\n((?:.*\n)*?)^\}/gm)) {
        const body = m[3] ?? '';
        const code = /readonly code: string = '(SNOWKEY_\w+)'/.exec(body)?.[1];
        const declaredName = /^ {2}override (?:readonly )?name(?:: string)? = '(\w+)';$/m.exec(body)?.[1];
        found.push({ name: m[1]!, parent: m[2]!, code, declaredName, file: relative(repo, file) });
      }
    }
  }
  return found;
}

function documentedCodes(): Map<string, string> {
  const page = readFileSync(join(repo, 'docs/guide/errors.md'), 'utf8');
  const rows = new Map<string, string>();
  for (const m of page.matchAll(/^\| `(SNOWKEY_\w+)` \| `(\w+)` \|/gm)) rows.set(m[1]!, m[2]!);
  return rows;
}

const classes = errorClasses();
const byName = new Map(classes.map((c) => [c.name, c]));
const isSnowkeyError = (c: ErrorClass): boolean =>
  c.parent === 'SnowkeyError' || (byName.has(c.parent) && isSnowkeyError(byName.get(c.parent)!));
const snowkeyErrors = classes.filter(isSnowkeyError);

describe('error codes', () => {
  test('GIVEN every class in packages/*/src that extends SnowkeyError THEN each declares a code of its own', () => {
    expect(snowkeyErrors.length).toBeGreaterThan(20);
    const missing = snowkeyErrors.filter((c) => c.code === undefined).map((c) => `${c.file}: ${c.name}`);
    expect(missing).toEqual([]);
  });

  test('GIVEN SnowkeyError and every class that extends it THEN each declares its class name as its name', () => {
    const base = byName.get('SnowkeyError');
    expect(base?.parent).toBe('Error');
    const wrong = [base!, ...snowkeyErrors]
      .filter((c) => c.declaredName !== c.name)
      .map(
        (c) =>
          `${c.file}: ${c.name} declares name ${c.declaredName === undefined ? '(none)' : `'${c.declaredName}'`}`,
      );
    expect(wrong).toEqual([]);
  });

  test('GIVEN two classes with one code THEN they are the same error of two adapters (same name)', () => {
    const names = new Map<string, Set<string>>();
    for (const c of snowkeyErrors) names.set(c.code!, (names.get(c.code!) ?? new Set()).add(c.name));
    const shared = [...names]
      .filter(([, n]) => n.size > 1)
      .map(([code, n]) => `${code}: ${[...n].join(', ')}`);
    expect(shared).toEqual([]);
  });

  test('GIVEN the Errors page THEN its table lists exactly the codes and classes of the source', () => {
    const fromSource = new Map(snowkeyErrors.map((c) => [c.code!, c.name]));
    expect(Object.fromEntries([...documentedCodes()].sort())).toEqual(
      Object.fromEntries([...fromSource].sort()),
    );
  });

  test('GIVEN the CLI THEN every code it treats as bad usage is a code snowkey throws', () => {
    const codes = new Set(snowkeyErrors.map((c) => c.code));
    expect([...USAGE_ERROR_CODES].filter((c) => !codes.has(c))).toEqual([]);
  });

  test('GIVEN errors constructed at run time THEN each carries its own code, the base class its default', () => {
    expect(new core.SnowkeyError('x').code).toBe('SNOWKEY_ERROR');
    expect(new core.InvalidArgumentError('workerId', 'an integer', 40).code).toBe('SNOWKEY_INVALID_ARGUMENT');
    expect(new core.InvalidIdError('id', 'an id', 'x').code).toBe('SNOWKEY_INVALID_ID');
    expect(new core.UpsertReadBackError('t', 0, ['name'], 0)).toMatchObject({
      code: 'SNOWKEY_UPSERT_READ_BACK',
      name: 'UpsertReadBackError',
    });
    expect(() => core.parseId('12a')).toThrow(expect.objectContaining({ code: 'SNOWKEY_INVALID_ID' }));
  });
});
