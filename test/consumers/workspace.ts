import { execFile, execFileSync, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { REPO } from './tarballs.js';

const TEMPLATES = join(REPO, 'test/consumers/apps');

/** One throwaway app: a template under test/consumers/apps, with some registry versions replaced. */
export interface AppSpec {
  /** The app's directory in the workspace; unique. */
  readonly name: string;
  /** The template's directory name under test/consumers/apps. */
  readonly template: string;
  /** Registry versions that replace the template's own (the other end of a peer range). */
  readonly versions?: Readonly<Record<string, string>>;
}

/** The apps of one `npm install`, in a temporary directory. */
export interface Workspace {
  readonly root: string;
  /** The absolute directory of app `name`. */
  dir(name: string): string;
  /** The version of `dependency` that `from` (a package the app installed) loads. */
  loadedVersion(app: string, from: string, dependency: string): string;
  remove(): void;
}

interface Manifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });

/** The template's manifest with the tarballs as `file:` specs and the app's versions applied. */
function appManifest(spec: AppSpec, tarballs: Readonly<Record<string, string>>): Manifest {
  const manifest = JSON.parse(
    readFileSync(join(TEMPLATES, spec.template, 'package.json'), 'utf8'),
  ) as Manifest;
  for (const field of ['dependencies', 'devDependencies'] as const) {
    const deps = manifest[field];
    if (!deps) continue;
    for (const name of Object.keys(deps)) {
      if (name.startsWith('@snowkey/')) {
        const tgz = tarballs[name];
        if (!tgz) throw new Error(`app ${spec.name} depends on ${name}, which has no tarball`);
        deps[name] = `file:${tgz}`;
      } else if (spec.versions?.[name]) deps[name] = spec.versions[name];
    }
  }
  for (const name of Object.keys(spec.versions ?? {})) {
    if (!manifest.dependencies?.[name] && !manifest.devDependencies?.[name]) {
      throw new Error(`app ${spec.name} sets a version of ${name}, which its template does not depend on`);
    }
  }
  return manifest;
}

/**
 * Lays out the apps as one npm workspace in a temporary directory and installs them with a
 * single `npm install`. A workspace holds one version of each package the apps share: npm hoists
 * an adapter beside the version at the top, so the other end of a peer range needs a workspace of
 * its own. The `@snowkey/*` packages come from their tarballs only (an override pins
 * every one of them, so the tarballs' own `@snowkey/core` dependency never reaches the registry),
 * everything else from the registry through the local npm cache. Install scripts are skipped;
 * better-sqlite3's native addon is then taken from the repository's own build of the same
 * version, or compiled.
 *
 * @example
 * const ws = await installWorkspace([{ name: 'knex-pg', template: 'knex-pg' }], ensureTarballs());
 * execFileSync('npx', ['tsc', '-p', '.'], { cwd: ws.dir('knex-pg') });
 */
export async function installWorkspace(
  apps: readonly AppSpec[],
  tarballs: Readonly<Record<string, string>>,
): Promise<Workspace> {
  const root = mkdtempSync(join(tmpdir(), 'snowkey-consumers-'));
  const overrides = Object.fromEntries(Object.entries(tarballs).map(([name, tgz]) => [name, `file:${tgz}`]));
  writeFileSync(
    join(root, 'package.json'),
    `${JSON.stringify({ name: 'snowkey-consumers', private: true, workspaces: apps.map((a) => `apps/${a.name}`), overrides }, null, 2)}\n`,
  );
  for (const app of apps) {
    const dir = join(root, 'apps', app.name);
    mkdirSync(dir, { recursive: true });
    cpSync(join(TEMPLATES, app.template), dir, {
      recursive: true,
      filter: (src) => !/[/\\](node_modules|dist)$/.test(src),
    });
    const manifest = { ...appManifest(app, tarballs), name: `consumer-${app.name}` };
    const original = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as object;
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ ...original, ...manifest }, null, 2)}\n`);
  }
  try {
    // Asynchronous, so that two workspaces (each end of the peer ranges) install side by side.
    await promisify(execFile)(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'],
      { cwd: root, maxBuffer: 16 * 1024 * 1024 },
    );
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    rmSync(root, { recursive: true, force: true });
    throw new Error(`npm install failed in ${root}:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
  buildBetterSqlite3(root);
  const dir = (name: string) => {
    if (!apps.some((a) => a.name === name)) throw new Error(`no app named ${name} in this workspace`);
    return join(root, 'apps', name);
  };
  return {
    root,
    dir,
    loadedVersion(app, from, dependency) {
      return packageVersion(packageDir(packageDir(dir(app), from), dependency));
    },
    remove() {
      // Deleting two node_modules trees takes minutes on a busy disk: a detached rm does it.
      spawn('rm', ['-rf', root], { detached: true, stdio: 'ignore' }).unref();
    },
  };
}

/** Where Node finds package `name` from `start`: the first node_modules/<name> up the tree. */
function packageDir(start: string, name: string): string {
  for (let at = start; ; at = dirname(at)) {
    const candidate = join(at, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(at) === at) throw new Error(`${name} is not installed where ${start} can load it`);
  }
}

const packageVersion = (dir: string) =>
  (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;

/** Every better-sqlite3 the install laid out, with its native addon in place. */
function buildBetterSqlite3(root: string): void {
  const found = [root, ...readdirSync(join(root, 'apps')).map((app) => join(root, 'apps', app))]
    .map((dir) => join(dir, 'node_modules/better-sqlite3'))
    .filter((dir) => existsSync(join(dir, 'package.json')));
  const repoDir = dirname(createRequire(join(REPO, 'package.json')).resolve('better-sqlite3/package.json'));
  const repoVersion = packageVersion(repoDir);
  for (const dir of found) {
    const addon = join(dir, 'build/Release/better_sqlite3.node');
    if (existsSync(addon)) continue;
    const version = packageVersion(dir);
    const built = join(repoDir, 'build/Release/better_sqlite3.node');
    if (version === repoVersion && existsSync(built)) {
      mkdirSync(dirname(addon), { recursive: true });
      cpSync(built, addon);
    } else {
      npm(['rebuild', 'better-sqlite3', '--foreground-scripts'], root);
    }
  }
}
