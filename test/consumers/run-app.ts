import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';

const run = (cmd: string, args: string[], cwd: string, env: Record<string, string> = {}) => {
  try {
    return execFileSync(cmd, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
    });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd}:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
};

/** The app's own TypeScript (the one its install resolves), run on its own tsconfig.json. */
export function typecheck(dir: string): void {
  const tsc = createRequire(join(dir, 'package.json')).resolve('typescript/bin/tsc');
  run(process.execPath, [tsc, '-p', '.'], dir);
}

/** Bin `bin` of package `pkg` as the app installed it (`vite`, `prisma`), run in the app's directory. */
export function runBin(
  dir: string,
  pkg: string,
  bin: string,
  args: string[],
  env?: Record<string, string>,
): string {
  const manifest = createRequire(join(dir, 'package.json')).resolve(`${pkg}/package.json`);
  const bins = (JSON.parse(readFileSync(manifest, 'utf8')) as { bin?: string | Record<string, string> }).bin;
  const file = typeof bins === 'string' ? bins : bins?.[bin];
  if (!file) throw new Error(`${pkg} has no bin named ${bin}`);
  return run(process.execPath, [join(dirname(manifest), file), ...args], dir, env);
}

/**
 * `PATH` as `npx` or a package script sets it in `dir`: every `node_modules/.bin` from `dir` up,
 * then the caller's own, so a command an installed package ships (a Prisma generator) is found.
 */
export function binPath(dir: string): string {
  const bins: string[] = [];
  for (let at = dir; ; at = dirname(at)) {
    bins.push(join(at, 'node_modules', '.bin'));
    if (dirname(at) === at) break;
  }
  return [...bins, process.env.PATH ?? ''].join(delimiter);
}

/** Runs the app's compiled `dist/main.js` and parses the JSON line it prints last. */
export function runApp<T = Record<string, unknown>>(dir: string, env: Record<string, string>): T {
  const out = run(process.execPath, ['dist/main.js'], dir, env).trim().split('\n');
  return JSON.parse(out[out.length - 1]!) as T;
}
