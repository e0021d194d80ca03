import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resolveServer } from './database-servers.js';
import { selectedDialects } from './databases.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const CONFIG = join(HERE, 'fixtures', 'vitest.fixtures.config.ts');

interface AssertionResult {
  ancestorTitles: string[];
  title: string;
  status: string;
  failureMessages: string[];
}
interface ChildRun {
  code: number | null;
  output: string;
  report: { testResults: { message: string; assertionResults: AssertionResult[] }[] };
}

/** Runs one fixture file in a child vitest with `env` on top of ours; resolves with its JSON report. */
function runFixture(
  fixture: string,
  env: Record<string, string | undefined>,
  dir: string,
): Promise<ChildRun> {
  const reportFile = join(dir, `${fixture}.json`);
  const child = spawn(
    process.execPath,
    [VITEST, 'run', '--config', CONFIG, fixture, '--reporter=json', `--outputFile=${reportFile}`],
    { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (output += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (output += c));
  return new Promise((resolve) => {
    child.on('exit', (code) => {
      const report = existsSync(reportFile)
        ? JSON.parse(readFileSync(reportFile, 'utf8'))
        : { testResults: [] };
      resolve({ code, output, report });
    });
  });
}

const blockOf = (r: AssertionResult) => r.ancestorTitles.join(' > ');

describe('the test harness seen from outside a test run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sk-harness-'));
  const out = join(dir, 'databases.jsonl');
  let unreachable: Promise<ChildRun>;
  let teardown: Promise<ChildRun>;
  beforeAll(() => {
    // Both children at once: each is a whole vitest start-up.
    unreachable = runFixture(
      'unreachable.fixture.ts',
      {
        CI: 'true',
        DIALECTS: 'postgres,sqlite',
        SNOWKEY_PG_URL: 'postgres://postgres@127.0.0.1:1/postgres',
      },
      dir,
    );
    teardown = runFixture(
      'failing-teardown.fixture.ts',
      {
        DIALECTS: selectedDialects().join(','),
        HARNESS_FIXTURE_OUT: out,
      },
      dir,
    );
  });
  afterAll(async () => {
    await Promise.allSettled([unreachable, teardown]);
    rmSync(dir, { recursive: true, force: true });
  });

  test('GIVEN CI=true, DIALECTS=postgres,sqlite AND SNOWKEY_PG_URL at a closed port THEN the postgres block fails (never skips), the sqlite block passes AND no mysql block runs', async () => {
    const run = await unreachable;
    expect(run.code, run.output).toBe(1);
    const results = run.report.testResults.flatMap((f) => f.assertionResults);
    expect(results.map((r) => [blockOf(r), r.status]).sort()).toEqual([
      ['unreachable fixture [postgres]', 'failed'],
      ['unreachable fixture [sqlite]', 'passed'],
    ]);
    const postgres = results.find((r) => blockOf(r).endsWith('[postgres]'))!;
    expect(postgres.failureMessages.join('\n')).toMatch(
      /CI=true and postgres at postgres:\/\/postgres@127\.0\.0\.1:1\/postgres .*unreachable \(ECONNREFUSED\)/,
    );
  });

  test('GIVEN a test file whose own afterAll throws THEN the harness still drops every database it created', async () => {
    const run = await teardown;
    expect(run.code, run.output).toBe(1); // the fixture's failing teardown fails its run
    const created = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { dialect: string; name: string; filename?: string });
    expect(created.map((c) => c.dialect).sort()).toEqual((await reachable(selectedDialects())).sort());
    for (const c of created) {
      if (c.dialect === 'sqlite') expect(existsSync(c.filename!), c.filename).toBe(false);
      else expect(await databaseExists(c.dialect as 'postgres' | 'mysql', c.name), c.name).toBe(false);
    }
  });
});

/** The dialects whose server answers here (sqlite always does). */
async function reachable(dialects: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const d of dialects) {
    if (d === 'sqlite' || (await resolveServer(d as 'postgres' | 'mysql')).kind === 'ready') out.push(d);
  }
  return out;
}

/** A raw look at the server's catalogue, through the same maintenance URL the harness uses. */
async function databaseExists(dialect: 'postgres' | 'mysql', name: string): Promise<boolean> {
  const server = await resolveServer(dialect);
  if (server.kind !== 'ready') throw new Error(`${dialect} is not reachable: ${server.reason}`);
  if (dialect === 'postgres') {
    const { default: pg } = await import('pg');
    const c = new pg.Client({ connectionString: server.url });
    await c.connect();
    try {
      return (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
    } finally {
      await c.end();
    }
  }
  const mysql = await import('mysql2/promise');
  const c = await mysql.createConnection({ uri: server.url });
  try {
    const [rows] = await c.query('SELECT 1 FROM information_schema.schemata WHERE schema_name = ?', [name]);
    return (rows as unknown[]).length === 1;
  } finally {
    await c.end();
  }
}
