import 'reflect-metadata';
import { HealthIndicatorService } from '@nestjs/terminus';
import { InvalidArgumentError, Snowflake } from '@snowkey/core';
import { describe, expect, test } from 'vitest';
import { SnowkeyModule, SnowkeyService } from '../src/index.js';
import { SnowkeyHealthIndicator } from '../src/terminus.js';

// Bad options fail at once, before any SQL, with core's InvalidArgumentError naming the option.

const invalid = (argument: string) =>
  expect.objectContaining({ name: 'InvalidArgumentError', code: 'SNOWKEY_INVALID_ARGUMENT', argument });

describe('SnowkeyModule options', () => {
  test.each([
    ['none of lease, segment, generator', {}],
    ['both lease and generator', { lease: { client: {} }, generator: new Snowflake({ workerId: 1 }) }],
  ])('GIVEN %s THEN SnowkeyService.start refuses "options"', async (_, options) => {
    await expect(SnowkeyService.start(options as never)).rejects.toEqual(invalid('options'));
  });

  test('GIVEN a generator without nextId THEN "options.generator" is refused', async () => {
    await expect(SnowkeyService.start({ generator: {} as never })).rejects.toEqual(
      invalid('options.generator'),
    );
  });

  test('GIVEN a lease without a SqlClient THEN leaseNodeId refuses "client" before any SQL', async () => {
    await expect(SnowkeyService.start({ lease: { client: {} as never } })).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
  });

  test.each([
    ['healthPath', { healthPath: '' }],
    ['isGlobal', { isGlobal: 'yes' }],
    ['serializeIds', { serializeIds: 1 }],
  ])('GIVEN a bad %s THEN forRoot refuses it', (argument, bad) => {
    const options = { generator: new Snowflake({ workerId: 1 }), ...bad };
    expect(() => SnowkeyModule.forRoot(options as never)).toThrow(
      expect.objectContaining({ argument, received: Object.values(bad)[0] }),
    );
  });

  test('GIVEN forRootAsync without useFactory THEN "options" is refused', () => {
    expect(() => SnowkeyModule.forRootAsync({} as never)).toThrow(invalid('options'));
  });

  test('GIVEN an own generator THEN the module hands it out and shutdown leaves it alone', async () => {
    const generator = new Snowflake({ workerId: 7 });
    const service = await SnowkeyService.start({ generator });
    expect(service.generator).toBe(generator);
    await service.onApplicationShutdown();
    expect(service.nextId()).toBeTypeOf('bigint');
    expect(service.health()).toMatchObject({ status: 'pass', generator: { nodeId: 7 } });
  });
});

describe('SnowkeyHealthIndicator arguments', () => {
  test.each([
    ['key', ''],
    ['probe', 'started'],
  ])('GIVEN a bad %s THEN isHealthy refuses it', async (argument, bad) => {
    const service = await SnowkeyService.start({ generator: new Snowflake({ workerId: 1 }) });
    const indicator = new SnowkeyHealthIndicator(new HealthIndicatorService(), service);
    const call = () =>
      argument === 'key' ? indicator.isHealthy(bad) : indicator.isHealthy('snowkey', bad as never);
    expect(call).toThrow(invalid(argument));
  });
});
