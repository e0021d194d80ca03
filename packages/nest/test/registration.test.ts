import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { Controller, type DynamicModule, Get, Inject, Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type IdGenerator, Snowflake } from '@snowkey/core';
import { describe, expect, test } from 'vitest';
import { InjectIdGenerator, SNOWKEY_GENERATOR, SnowkeyModule } from '../src/index.js';

// How the module registers itself (isGlobal, serializeIds), with a generator of the test's own:
// no database involved.

@Controller('ids')
class IdsController {
  constructor(@Inject(SNOWKEY_GENERATOR) private readonly ids: IdGenerator) {}
  @Get('next')
  next() {
    return { id: this.ids.nextId() };
  }
}

@Injectable()
class NeedsIds {
  constructor(@InjectIdGenerator() readonly ids: IdGenerator) {}
}

async function listen(root: DynamicModule) {
  const app = await NestFactory.create(root, { logger: false, abortOnError: false });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, url: `http://127.0.0.1:${port}` };
}

@Module({})
class Root {}

describe('SnowkeyModule registration', () => {
  const generator = new Snowflake({ workerId: 3 });

  test('GIVEN the defaults THEN a bigint in a response is its exact decimal string', async () => {
    const { app, url } = await listen({
      module: Root,
      imports: [SnowkeyModule.forRoot({ generator })],
      controllers: [IdsController],
    });
    try {
      const res = await fetch(`${url}/ids/next`);
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toMatch(/^\{"id":"[1-9][0-9]{15,18}"\}$/);
    } finally {
      await app.close();
    }
  });

  test('GIVEN serializeIds: false THEN the interceptor is not registered: Nest cannot write the bigint (500)', async () => {
    const { app, url } = await listen({
      module: Root,
      imports: [SnowkeyModule.forRoot({ generator, serializeIds: false })],
      controllers: [IdsController],
    });
    try {
      expect((await fetch(`${url}/ids/next`)).status).toBe(500);
    } finally {
      await app.close();
    }
  });

  test('GIVEN the defaults THEN a feature module that does not import SnowkeyModule injects the generator (global)', async () => {
    @Module({ providers: [NeedsIds] })
    class Feature {}
    const app = await NestFactory.createApplicationContext(
      { module: Root, imports: [SnowkeyModule.forRoot({ generator }), Feature] },
      { logger: false, abortOnError: false },
    );
    try {
      expect(app.get(NeedsIds).ids).toBe(generator);
    } finally {
      await app.close();
    }
  });

  test('GIVEN isGlobal: false THEN only the modules that import it can inject the generator', async () => {
    @Module({ providers: [NeedsIds] })
    class Feature {}
    await expect(
      NestFactory.createApplicationContext(
        { module: Root, imports: [SnowkeyModule.forRoot({ generator, isGlobal: false }), Feature] },
        { logger: false, abortOnError: false },
      ),
    ).rejects.toThrow(/SNOWKEY_GENERATOR|@snowkey\/nest:generator/);
  });
});
