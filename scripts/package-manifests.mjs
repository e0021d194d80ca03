// The publishing fields of every package.json under packages/, written in one place: metadata,
// the files a tarball ships, the exports a tarball carries (the workspace's `dev-source`
// condition points into src/, which is not shipped) and the node10 `typesVersions` of subpaths.
// `node scripts/package-manifests.mjs` rewrites them; `--check` lists what differs and exits 1
// (test/packages/manifests.test.ts runs it).
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const REPOSITORY = 'https://github.com/snowkey/snowkey';
const COMMON_KEYWORDS = [
  'snowflake',
  'snowflake-id',
  'id-generator',
  'bigint',
  'primary-key',
  'distributed-id',
];
const KEYWORDS = {
  core: ['segment', 'leaf', 'lease', 'worker-id', 'public-id'],
  cli: ['cli', 'merge', 'game-server', 'sharding'],
  drizzle: ['drizzle', 'drizzle-orm', 'orm'],
  http: ['json', 'express', 'fastify', 'nestjs', 'trpc'],
  knex: ['knex', 'query-builder'],
  kysely: ['kysely', 'query-builder'],
  merge: ['merge', 'game-server', 'sharding', 'migration'],
  nest: ['nestjs', 'nest', 'module'],
  prisma: ['prisma', 'orm'],
  sequelize: ['sequelize', 'orm'],
  typeorm: ['typeorm', 'orm'],
  etcd: ['etcd', 'lease', 'worker-id'],
};

/** Files a package ships besides its build: core's spec and its test vectors (`./vectors.json`). */
const EXTRA_FILES = {
  core: ['SPEC.md', 'vectors.json'],
};

/** `exports` without the workspace-only `dev-source` condition. */
function publishedExports(exports) {
  if (typeof exports !== 'object' || exports === null) return exports;
  return Object.fromEntries(
    Object.entries(exports)
      .filter(([condition]) => condition !== 'dev-source')
      .map(([key, value]) => [key, publishedExports(value)]),
  );
}

/** node10 ignores `exports`: each subpath's types through `typesVersions` (CommonJS declarations). */
function typesVersions(exports) {
  const paths = {};
  for (const [subpath, target] of Object.entries(exports ?? {})) {
    if (subpath === '.' || subpath.endsWith('.json')) continue;
    const types = target?.require?.types;
    if (types) paths[subpath.slice(2)] = [types];
  }
  return Object.keys(paths).length > 0 ? { '*': paths } : undefined;
}

function expected(dir, pkg) {
  const next = { ...pkg };
  next.license = 'MIT';
  next.author = 'snowkey contributors';
  next.keywords = [...COMMON_KEYWORDS, ...(KEYWORDS[dir] ?? [])];
  next.homepage = `${REPOSITORY}/tree/main/packages/${dir}#readme`;
  next.repository = { type: 'git', url: `git+${REPOSITORY}.git`, directory: `packages/${dir}` };
  next.bugs = { url: `${REPOSITORY}/issues` };
  next.files = ['dist', 'CHANGELOG.md', ...(EXTRA_FILES[dir] ?? [])];
  const versions = typesVersions(pkg.exports);
  if (versions) next.typesVersions = versions;
  else delete next.typesVersions;
  next.publishConfig = { access: 'public', exports: publishedExports(pkg.exports) };
  return next;
}

/** Key order: npm's usual order for the fields this script owns, then the rest as they were. */
function ordered(pkg) {
  const first = [
    'name',
    'version',
    'description',
    'keywords',
    'homepage',
    'bugs',
    'repository',
    'license',
    'author',
    'type',
    'sideEffects',
    'main',
    'module',
    'types',
    'typesVersions',
    'exports',
    'bin',
    'files',
  ];
  const out = {};
  for (const key of first) if (key in pkg) out[key] = pkg[key];
  for (const key of Object.keys(pkg)) if (!(key in out)) out[key] = pkg[key];
  return out;
}

const check = process.argv.includes('--check');
const problems = [];
const license = readFileSync(join(repo, 'LICENSE'), 'utf8');
for (const dir of readdirSync(join(repo, 'packages')).sort()) {
  const file = join(repo, 'packages', dir, 'package.json');
  if (!existsSync(file)) continue;
  const text = readFileSync(file, 'utf8');
  const pkg = JSON.parse(text);
  if (pkg.private) continue;
  const want = `${JSON.stringify(ordered(expected(dir, pkg)), null, 2)}\n`;
  const licenseFile = join(repo, 'packages', dir, 'LICENSE');
  const licenseOk = existsSync(licenseFile) && readFileSync(licenseFile, 'utf8') === license;
  if (check) {
    if (want !== text) problems.push(`packages/${dir}/package.json: run node scripts/package-manifests.mjs`);
    if (!licenseOk) problems.push(`packages/${dir}/LICENSE: missing or not the root LICENSE`);
  } else {
    if (want !== text) writeFileSync(file, want);
    if (!licenseOk) copyFileSync(join(repo, 'LICENSE'), licenseFile);
  }
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
