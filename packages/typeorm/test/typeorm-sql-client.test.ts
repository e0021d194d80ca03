import 'reflect-metadata';
import { InvalidArgumentError, layouts, leaseNodeId, Snowflake } from '@snowkey/core';
import { describeEachDialect } from '@snowkey/test-harness';
import { appTransactionContract } from '@snowkey/test-harness/app-transaction-contract';
import { sqlClientContract } from '@snowkey/test-harness/sql-client-contract';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, expect, test } from 'vitest';
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

  sqlClientContract(ctx, () => typeormSqlClient(ds));
  appTransactionContract(ctx, {
    client: () => typeormSqlClient(ds),
    rolledBack: (table, work) =>
      ds.transaction(async (manager) => {
        await manager.query(`INSERT INTO ${table} (id, name) VALUES (1, 'app')`);
        await work();
      }),
    whileOpen: ctx.dialect === 'sqlite' ? 'refused' : 'runs apart',
    refusal: { name: 'ConnectionInTransactionError' },
  });

  test('GIVEN the contract rows THEN query reads 2^63-1 back exactly through the DataSource', async () => {
    const rows = await typeormSqlClient(ds).query<{ id: unknown }>(
      'SELECT id FROM sc_contract WHERE id = ?',
      [2n ** 63n - 1n],
    );
    expect(rows.map((r) => BigInt(r.id as string | bigint))).toEqual([2n ** 63n - 1n]);
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
  [
    'the node-sqlite3 driver type, which cannot tell whether its connection is in a transaction',
    { options: { type: 'sqlite' } },
  ],
  ['no DataSource', undefined],
])('GIVEN %s THEN typeormSqlClient throws an InvalidArgumentError naming dataSource', (_title, value) => {
  expect(() => typeormSqlClient(value as unknown as DataSource)).toThrow(InvalidArgumentError);
  expect(() => typeormSqlClient(value as unknown as DataSource)).toThrow('"dataSource"');
});
