import { afterEach, describe, expect, test } from 'vitest';
import { resolveServerUncached } from './database-servers.js';
import { describeEachDialect, selectedDialects } from './databases.js';
import { toPgPlaceholders } from './sql-placeholders.js';

const MAX_I64 = '9223372036854775807';
const ABOVE_2_53 = '9007199254740993';

describeEachDialect('test harness', (ctx) => {
  test('GIVEN BIGINT edges written as bigint THEN raw reads return the exact decimal strings', async () => {
    await ctx.db.query('CREATE TABLE edge (id BIGINT PRIMARY KEY, qty INT NOT NULL)');
    await ctx.db.query('INSERT INTO edge (id, qty) VALUES (?, ?), (?, ?)', [
      BigInt(MAX_I64),
      1,
      BigInt(ABOVE_2_53),
      2,
    ]);
    const rows = await ctx.db.query<{ id: string; qty: number }>('SELECT id, qty FROM edge ORDER BY qty');
    expect(rows).toEqual([
      { id: MAX_I64, qty: 1 },
      { id: ABOVE_2_53, qty: 2 },
    ]);
  });

  test('GIVEN a `?` inside a string literal THEN only real placeholders are bound', async () => {
    const rows = await ctx.db.query<{ q: string; id: string }>("SELECT '?' AS q, id FROM edge WHERE id = ?", [
      BigInt(ABOVE_2_53),
    ]);
    expect(rows).toEqual([{ q: '?', id: ABOVE_2_53 }]);
  });

  test('GIVEN COUNT(*) THEN it reads back as a string on every dialect', async () => {
    const rows = await ctx.db.query<{ n: unknown }>('SELECT COUNT(*) AS n FROM edge');
    expect(rows).toEqual([{ n: '2' }]);
  });

  test('GIVEN the database name THEN it is unique to this file and process', () => {
    expect(ctx.db.name).toMatch(new RegExp(`^sk_test_harness_${process.pid}_[0-9a-f]{8}$`));
    expect(ctx.db.dialect).toBe(ctx.dialect);
  });
});

describe('selectedDialects', () => {
  const saved = process.env.DIALECTS;
  afterEach(() => {
    if (saved === undefined) delete process.env.DIALECTS;
    else process.env.DIALECTS = saved;
  });

  test.each([
    [undefined, ['postgres', 'mysql', 'sqlite']],
    ['', ['postgres', 'mysql', 'sqlite']],
    ['postgres', ['postgres']],
    [' MySQL , sqlite,mysql ', ['mysql', 'sqlite']],
  ])('GIVEN DIALECTS=%j THEN it selects %j', (value, expected) => {
    if (value === undefined) delete process.env.DIALECTS;
    else process.env.DIALECTS = value;
    expect(selectedDialects()).toEqual(expected);
  });

  test('GIVEN DIALECTS with an unknown name THEN it throws naming the choices', () => {
    process.env.DIALECTS = 'postgres,oracle';
    expect(() => selectedDialects()).toThrow(/DIALECTS must be a comma list of postgres, mysql, sqlite/);
  });
});

describe('toPgPlaceholders', () => {
  test.each([
    ['SELECT ?', 'SELECT $1'],
    ['INSERT INTO t VALUES (?, ?), (?, ?)', 'INSERT INTO t VALUES ($1, $2), ($3, $4)'],
    ["SELECT '?', 'it''s ?', ?", "SELECT '?', 'it''s ?', $1"],
    ['SELECT "a?" FROM t WHERE b = ?', 'SELECT "a?" FROM t WHERE b = $1'],
    ['SELECT ? -- why?\n, ?', 'SELECT $1 -- why?\n, $2'],
    ['SELECT /* ? */ ?', 'SELECT /* ? */ $1'],
  ])('GIVEN %j THEN %j', (sql, expected) => {
    expect(toPgPlaceholders(sql)).toBe(expected);
  });
});

describe('an unreachable server', () => {
  test.each([
    [
      'mysql',
      'SNOWKEY_MYSQL_URL',
      'mysql://root:secret@127.0.0.1:1/test',
      'mysql://root:\\*\\*\\*@127\\.0\\.0\\.1:1/test',
    ],
    [
      'postgres',
      'SNOWKEY_PG_URL',
      'postgres://postgres:secret@127.0.0.1:1/postgres',
      'postgres://postgres:\\*\\*\\*@127\\.0\\.0\\.1:1/postgres',
    ],
  ] as const)(
    'GIVEN CI=true AND %s at a closed port THEN resolving it throws a message that names the URL (password hidden) and %s',
    async (dialect, variable, url, shown) => {
      await expect(resolveServerUncached(dialect, { CI: 'true', [variable]: url })).rejects.toThrow(
        new RegExp(`CI=true and ${dialect} at ${shown} .*unreachable \\(ECONNREFUSED\\).*${variable}`),
      );
    },
  );

  test('GIVEN no CI and no usable container runtime THEN it resolves to a skip with the reason', async () => {
    const r = await resolveServerUncached('postgres', {
      SNOWKEY_PG_URL: 'postgres://postgres@127.0.0.1:1/postgres',
    });
    // With a Docker engine and Node >= 22.22 this starts a container instead; both are fine here.
    if (r.kind === 'skip') expect(r.reason).toMatch(/127\.0\.0\.1:1.*unreachable \(ECONNREFUSED\) and /);
    else expect(r.source).toBe('testcontainers');
  });
});
