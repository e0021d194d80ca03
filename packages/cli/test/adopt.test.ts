import { createTestDatabase, type DroppableTestDatabase, describeEachDialect } from '@snowkey/test-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runCli } from './run-cli.js';

// snowkey adopt from the command line: a dry run prints the statements and changes nothing, a
// refused table exits 1 with the reason and changes nothing, --apply switches the tables (read back
// with raw SQL), and a second run has nothing to do.

const SCHEMA: Record<string, string[]> = {
  postgres: [
    'CREATE TABLE players (id SERIAL PRIMARY KEY, name VARCHAR(40) NOT NULL)',
    'CREATE TABLE logs (msg VARCHAR(40))',
  ],
  mysql: [
    'CREATE TABLE players (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, name VARCHAR(40) NOT NULL)',
    'CREATE TABLE logs (msg VARCHAR(40))',
  ],
  sqlite: [
    'CREATE TABLE players (id INTEGER PRIMARY KEY AUTOINCREMENT, name VARCHAR(40) NOT NULL)',
    'CREATE TABLE logs (msg VARCHAR(40))',
  ],
};

describeEachDialect('snowkey adopt', (ctx) => {
  let db: DroppableTestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(ctx.dialect, 'cli_adopt');
    for (const sql of SCHEMA[ctx.dialect]!) await db.query(sql);
    await db.query('INSERT INTO players (name) VALUES (?)', ['Aria']);
  });
  afterAll(() => db.drop());

  const numbered = async () => {
    await db.query('INSERT INTO players (name) VALUES (?)', ['numbered']);
    await db.query('DELETE FROM players WHERE name = ?', ['numbered']);
  };

  test('GIVEN no --apply THEN it prints the plan and the database still numbers keys', async () => {
    const { code, stdout, stderr } = await runCli(['adopt', '--url', db.url, '--table', 'players']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^players\.id: largest key 1, below \d+, the first id the layout can issue$/m);
    expect(stdout).toMatch(/^dry run: [1-9]\d* statements; run again with --apply$/m);
    await expect(numbered()).resolves.toBeUndefined();
  });

  test('GIVEN a table without a primary key THEN it exits 1 with the reason and changes nothing', async () => {
    const { code, stdout } = await runCli(['adopt', '--url', db.url, '--apply']);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^refused logs: it has no primary key$/m);
    await expect(numbered()).resolves.toBeUndefined();
  });

  test('GIVEN --apply THEN an INSERT without a key is refused, a snowkey id goes in, and a second run has nothing to do', async () => {
    const first = await runCli(['adopt', '--url', db.url, '--table', 'players', '--apply']);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^done: [1-9]\d* statements$/m);
    await expect(numbered()).rejects.toThrow();
    await db.query('INSERT INTO players (id, name) VALUES (?, ?)', [9223372036854775807n, 'max']);
    const [row] = await db.query<{ id: unknown }>('SELECT id FROM players WHERE name = ?', ['max']);
    expect(BigInt(row!.id as bigint)).toBe(9223372036854775807n);
    const second = await runCli(['adopt', '--url', db.url, '--table', 'players', '--json']);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ steps: [], refused: [], applied: false });
  });

  test('GIVEN --keys other THEN it exits 2 naming the flag', async () => {
    const { code, stderr } = await runCli(['adopt', '--url', db.url, '--keys', 'db']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^error: "--keys" must be app or sql/);
  });
});
