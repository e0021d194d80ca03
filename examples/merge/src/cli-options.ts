import { parseArgs } from 'node:util';
import { InvalidArgumentError } from '@snowkey/core';
import type { DatabaseHost } from './database-host.js';

/** The flags every example CLI understands. */
export interface ExampleOptions {
  readonly host: DatabaseHost;
  /** Database name prefix. */
  readonly prefix: string;
  readonly shards: number;
  readonly players: number;
  readonly writers: number;
  readonly batch: number;
  readonly seed: number;
  /** Run the AUTO_INCREMENT, ticket-server and segment contrasts too. */
  readonly contrasts: boolean;
  /** Adapters to play the shards with, round robin (the demo only). */
  readonly adapters: readonly string[];
  readonly help: boolean;
}

/** The defaults of {@link parseExampleArgs}, which an example may change. */
export interface ExampleDefaults {
  prefix: string;
  players: number;
  adapters: readonly string[];
}

/**
 * `--help` text for the flags of {@link parseExampleArgs}.
 *
 * @example
 * process.stdout.write(`usage: pnpm start [-- flags]\n${EXAMPLE_FLAGS_HELP}`);
 */
export const EXAMPLE_FLAGS_HELP = `
  --db sqlite|postgres|mysql   where the databases live (default sqlite)
  --pg-url URL                 PostgreSQL server (env SNOWKEY_PG_URL; default postgres://postgres@127.0.0.1:5432/postgres)
  --mysql-url URL              MySQL/MariaDB server (env SNOWKEY_MYSQL_URL; default mysql://root@127.0.0.1:3306/test)
  --dir DIR                    SQLite files (default .tmp/merge)
  --prefix NAME                database names start with it
  --shards N                   game servers, 2..16 (default 2)
  --players N                  players per server
  --writers N                  concurrent writers per server (default 4)
  --batch N                    rows per merge batch (default 500)
  --seed N                     seed of names and actions (default 1)
  --no-contrasts               skip the AUTO_INCREMENT, ticket-server and segment contrasts
`;

/**
 * Parses the example flags (see {@link EXAMPLE_FLAGS_HELP}); a bad value is an
 * `InvalidArgumentError` naming the flag.
 *
 * @example
 * parseExampleArgs(['--db', 'postgres', '--players', '200'], { prefix: 'demo', players: 1000, adapters: ['knex'] });
 * // { host: { dialect: 'postgres', url: 'postgres://postgres@127.0.0.1:5432/postgres' }, players: 200, ... }
 */
export function parseExampleArgs(
  argv: readonly string[],
  defaults: ExampleDefaults,
  env: NodeJS.ProcessEnv = process.env,
): ExampleOptions {
  const { values } = parseArgs({
    args: withoutSeparator(argv),
    allowNegative: true,
    options: {
      db: { type: 'string', default: 'sqlite' },
      'pg-url': { type: 'string' },
      'mysql-url': { type: 'string' },
      dir: { type: 'string', default: '.tmp/merge' },
      prefix: { type: 'string', default: defaults.prefix },
      shards: { type: 'string', default: '2' },
      players: { type: 'string', default: String(defaults.players) },
      writers: { type: 'string', default: '4' },
      batch: { type: 'string', default: '500' },
      seed: { type: 'string', default: '1' },
      contrasts: { type: 'boolean', default: true },
      adapters: { type: 'string', default: defaults.adapters.join(',') },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const db = values.db;
  let host: DatabaseHost;
  if (db === 'sqlite') host = { dialect: 'sqlite', dir: values.dir };
  else if (db === 'postgres' || db === 'pg') {
    host = {
      dialect: 'postgres',
      url: values['pg-url'] ?? env.SNOWKEY_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    };
  } else if (db === 'mysql' || db === 'mariadb') {
    host = {
      dialect: 'mysql',
      url: values['mysql-url'] ?? env.SNOWKEY_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test',
    };
  } else throw new InvalidArgumentError('--db', 'sqlite, postgres or mysql', db);
  if (!/^[a-z][a-z0-9_]{0,40}$/.test(values.prefix)) {
    throw new InvalidArgumentError(
      '--prefix',
      'a lowercase identifier of at most 41 characters',
      values.prefix,
    );
  }
  return {
    host,
    prefix: values.prefix,
    shards: intFlag('--shards', values.shards, 2, 16),
    players: intFlag('--players', values.players, 2, 1_000_000),
    writers: intFlag('--writers', values.writers, 1, 64),
    batch: intFlag('--batch', values.batch, 1, 10_000),
    seed: intFlag('--seed', values.seed, 0, 2 ** 31),
    contrasts: values.contrasts,
    adapters: values.adapters
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    help: values.help,
  };
}

/**
 * `argv` without a leading `--`: pnpm 10 passes the separator of `pnpm demo -- --db postgres` on
 * to the script, where `parseArgs` would take every flag after it for a positional.
 *
 * @example
 * withoutSeparator(['--', '--db', 'postgres']); // ['--db', 'postgres']
 */
export function withoutSeparator(argv: readonly string[]): string[] {
  return argv[0] === '--' ? argv.slice(1) : [...argv];
}

function intFlag(flag: string, raw: string, min: number, max: number): number {
  const n = /^[0-9]+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new InvalidArgumentError(flag, `an integer in ${min}..${max}`, raw);
  }
  return n;
}
