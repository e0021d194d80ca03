import 'reflect-metadata';
import { InvalidArgumentError, layouts, leaseNodeId, Snowflake } from '@snowkey/core';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { describeEachDialect } from '../../../test/helpers/databases.js';
import { attachSnowflakes, typeormSqlClient } from '../src/index.js';
import { newDataSource } from './support/data-source.js';
import { Guild, gameEntities } from './support/game-entities.js';

describeEachDialect('typeormSqlClient', (ctx) => {
  let ds: DataSource;
  beforeAll(async () => {
    ds = newDataSource(ctx.db, gameEntities, { synchronize: true });
    await ds.initialize();
  });
  afterAll(() => ds?.destroy());

  test('GIVEN ? placeholders THEN statements run on the DataSource, execute counts the rows matched and query returns rows', async () => {
    const client = typeormSqlClient(ds);
    expect(client.dialect).toBe(ctx.dialect);

    await client.execute('CREATE TABLE kv (k VARCHAR(20) NOT NULL PRIMARY KEY, v BIGINT NOT NULL)');
    expect(
      await client.execute('INSERT INTO kv (k, v) VALUES (?, ?), (?, ?)', ['a', 2n ** 63n - 1n, 'b', 1]),
    ).toBe(2);
    // Same value again: the row is matched though not changed, and MySQL must count it too.
    expect(await client.execute('UPDATE kv SET v = ? WHERE k = ?', [1, 'b'])).toBe(1);
    expect(await client.execute('UPDATE kv SET v = ? WHERE k = ?', [1, 'missing'])).toBe(0);

    const rows = await client.query<{ k: string; v: unknown }>(
      "SELECT k, v FROM kv WHERE k <> '?' ORDER BY k",
    );
    expect(rows.map((r) => [r.k, BigInt(r.v as string | bigint)])).toEqual([
      ['a', 2n ** 63n - 1n],
      ['b', 1n],
    ]);
    expect(await ctx.db.query('SELECT v FROM kv WHERE k = ?', ['a'])).toEqual([{ v: '9223372036854775807' }]);
  });

  test('GIVEN a node id leased through the DataSource THEN the attached generator issues ids with that node id', async () => {
    const lease = await leaseNodeId({
      client: typeormSqlClient(ds),
      layout: layouts.default,
      heartbeat: false,
    });
    try {
      const generator = new Snowflake({ layout: layouts.default, lease });
      attachSnowflakes(ds, { generator, generators: { serials: generator } });
      const guild = await ds.getRepository(Guild).save({ name: 'leased' });

      expect(generator.decode(guild.id).workerId).toBe(lease.nodeId);
      expect(await ctx.db.query('SELECT id FROM guild WHERE name = ?', ['leased'])).toEqual([
        { id: String(guild.id) },
      ]);
    } finally {
      await lease.release();
    }
  });
});

test.each([
  ['an unsupported driver type', { options: { type: 'mongodb' } }],
  ['no DataSource', undefined],
])('GIVEN %s THEN typeormSqlClient throws an InvalidArgumentError naming dataSource', (_title, value) => {
  expect(() => typeormSqlClient(value as unknown as DataSource)).toThrow(InvalidArgumentError);
  expect(() => typeormSqlClient(value as unknown as DataSource)).toThrow('"dataSource"');
});
