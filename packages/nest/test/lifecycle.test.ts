import 'reflect-metadata';
import { request } from 'node:http';
import { type BeforeApplicationShutdown, Controller, Inject, Module, Post } from '@nestjs/common';
import { decode, type IdGenerator, layouts } from '@snowkey/core';
import { describeEachDialect } from '@snowkey/test-harness';
import { expect, test } from 'vitest';
import { SNOWKEY_GENERATOR } from '../src/index.js';
import { PLAYERS_DDL, startPlayersApp } from './support/players-app.js';

// The lease outlives the HTTP server: a request in flight when app.close() starts still gets an
// id, and the lease is released only after the server has finished with it. No timers: the
// request waits on a promise the test resolves once Nest has begun shutting down.

/** POST without keep-alive: the server closes as soon as it has answered, not at a keep-alive timeout. */
function postOnce(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: false, headers: { connection: 'close' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describeEachDialect('SnowkeyModule shutdown', (ctx) => {
  test('GIVEN a request in flight at app.close() THEN it gets an id on the held lease, and the lease is released after it (raw SQL)', async () => {
    await ctx.db.query(PLAYERS_DDL);
    const entered = deferred();
    const gate = deferred();
    const shuttingDown = deferred();

    @Controller('slow')
    class SlowController {
      constructor(@Inject(SNOWKEY_GENERATOR) private readonly ids: IdGenerator) {}
      @Post()
      async create() {
        entered.resolve();
        await gate.promise;
        return { id: this.ids.nextId() };
      }
    }
    class ShutdownProbe implements BeforeApplicationShutdown {
      beforeApplicationShutdown() {
        shuttingDown.resolve();
      }
    }
    @Module({ controllers: [SlowController], providers: [ShutdownProbe] })
    class SlowModule {}

    const app = await startPlayersApp(ctx.db, { imports: [SlowModule] });
    const lease = app.snowkey.lease!;
    const held = async () =>
      (
        await ctx.db.query<{ node_id: unknown }>(
          'SELECT node_id FROM snowkey_node_leases WHERE holder IS NOT NULL',
        )
      ).map((r) => Number(r.node_id));

    const response = postOnce(`${app.url}/slow`);
    await entered.promise;
    const closing = app.close();
    await shuttingDown.promise;
    expect(lease.state).toBe('held');
    expect(await held()).toEqual([lease.nodeId]);

    gate.resolve();
    const res = await response;
    expect(res.status).toBe(201);
    const { id } = JSON.parse(res.body) as { id: string };
    expect(decode(BigInt(id), { layout: layouts.default }).workerId).toBe(lease.nodeId);

    await closing;
    expect(lease.state).toBe('released');
    expect(await held()).toEqual([]);
  });
});
