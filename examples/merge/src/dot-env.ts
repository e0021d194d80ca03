import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';

/**
 * Fills unset variables from the repository's `.env` (see `.env.example`), as the test harness
 * does, so `SNOWKEY_PG_URL` / `SNOWKEY_MYSQL_URL` set there reach the examples too. Variables
 * already in the environment win.
 *
 * @example
 * loadRepositoryEnv(); // process.env.SNOWKEY_PG_URL from .env when it was unset
 */
export function loadRepositoryEnv(env: NodeJS.ProcessEnv = process.env): void {
  const file = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '.env');
  if (!existsSync(file)) return;
  for (const [key, value] of Object.entries(parseEnv(readFileSync(file, 'utf8')))) {
    if (env[key] === undefined) env[key] = value;
  }
}
