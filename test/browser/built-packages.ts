import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The `dist` folder of a workspace package, built first when it is missing (`pnpm test` builds
 * everything before vitest; a lone `vitest run test/browser` builds what it needs).
 *
 * @example
 * const dist = builtDist('core', '@snowkey/core'); // <root>/packages/core/dist
 */
export function builtDist(folder: string, name: string): string {
  const dist = join(ROOT, 'packages', folder, 'dist');
  if (!existsSync(join(dist, 'index.js'))) {
    execFileSync('pnpm', ['--filter', name, 'build'], { cwd: ROOT, stdio: 'pipe' });
  }
  return dist;
}
