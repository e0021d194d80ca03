import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const PACKS = join(REPO, '.tmp/packs');

/** The public packages of the repository: name and the tarball `pnpm pack` names for it. */
function publicPackages(): { name: string; file: string }[] {
  const out: { name: string; file: string }[] = [];
  for (const dir of readdirSync(join(REPO, 'packages')).sort()) {
    const manifest = join(REPO, 'packages', dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as {
      name: string;
      version: string;
      private?: boolean;
    };
    if (pkg.private) continue;
    out.push({ name: pkg.name, file: `${pkg.name.replace('@', '').replace('/', '-')}-${pkg.version}.tgz` });
  }
  return out;
}

/**
 * The packed tarball of every public package, by name (`@snowkey/core` → `/repo/.tmp/packs/…tgz`).
 * Missing tarballs are built and packed once (`scripts/pack-check.mjs`), except under `CI=true`,
 * where `.ci/run` has packed them just before: there a missing tarball is a failure.
 *
 * @example
 * const tgz = ensureTarballs()['@snowkey/knex']; // '/repo/.tmp/packs/snowkey-knex-0.1.0.tgz'
 */
export function ensureTarballs(): Record<string, string> {
  const packages = publicPackages();
  const missing = () => packages.filter((p) => !existsSync(join(PACKS, p.file)));
  if (missing().length > 0) {
    if (process.env.CI === 'true') {
      throw new Error(
        `tarballs missing in ${PACKS}: ${missing()
          .map((p) => p.file)
          .join(', ')} (run node scripts/pack-check.mjs first)`,
      );
    }
    execFileSync('node', ['scripts/pack-check.mjs'], { cwd: REPO, stdio: 'inherit' });
  }
  if (missing().length > 0) throw new Error(`pack-check left no tarball for ${missing()[0]!.name}`);
  return Object.fromEntries(packages.map((p) => [p.name, join(PACKS, p.file)]));
}
