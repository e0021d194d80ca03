import { InvalidArgumentError, Snowflake, SnowkeyError } from '@snowkey/core';
import { beforeAll, describe, expect, test } from 'vitest';
import { SnowflakeFieldError, snowkey, snowkeyClient } from '../src/index.js';
import type { Prisma } from './generated/postgres/client/client.js';
import { openUnconnectedPrisma, type TestPrismaClient } from './helpers/prisma-test-client.js';

const generator = new Snowflake({ workerId: 1 });

describe('snowkey() options', () => {
  test.each([
    ['no options', undefined, 'options'],
    ['no generator', { models: { Item: 'id' } }, 'generator'],
    ['a generator without nextId', { generator: { next: () => 1n }, models: { Item: 'id' } }, 'generator'],
    ['no models', { generator }, 'models'],
    ['models as an array', { generator, models: ['Item'] }, 'models'],
    ['an empty models map', { generator, models: {} }, 'models'],
    ['an empty field list', { generator, models: { Item: [] } }, 'models.Item'],
    ['a field that is not a string', { generator, models: { Item: 5 } }, 'models.Item'],
  ])('GIVEN %s THEN snowkey() throws InvalidArgumentError naming "%s"', (_label, options, argument) => {
    const call = () => snowkey(options as never);
    expect(call).toThrow(InvalidArgumentError);
    expect(call).toThrow(`"${argument}" must be`);
  });
});

describe('$extends(snowkey()) against the data model', () => {
  let base: TestPrismaClient;
  beforeAll(async () => {
    base = await openUnconnectedPrisma();
  });

  test.each([
    [
      'an unknown model',
      { Itme: 'id' },
      'Itme',
      undefined,
      'one of Child, Item, Note, Parent, Profile, Shelf, Stock, Toy',
    ],
    ['an unknown field', { Item: 'nme' }, 'Item', 'nme', 'a BigInt scalar field of model Item (one of: id)'],
    ['a String field', { Item: ['id', 'name'] }, 'Item', 'name', '"name" is a String field'],
    ['an Int field', { Shelf: 'id' }, 'Shelf', 'id', '(the model has none; "id" is a Int field)'],
    ['a relation field', { Parent: 'children' }, 'Parent', 'children', '"children" is a relation field'],
  ])(
    'GIVEN %s THEN $extends(snowkey()) and snowkeyClient() throw SnowflakeFieldError before any query',
    (_label, models, model, field, text) => {
      const attachments = [
        () => base.$extends(snowkey({ generator, models })),
        () => snowkeyClient(base, { generator, models }),
      ];
      for (const attach of attachments) {
        let caught: unknown;
        try {
          attach();
        } catch (err) {
          caught = err;
        }
        expectFieldError(caught, model, field, text);
      }
    },
  );

  function expectFieldError(caught: unknown, model: string, field: string | undefined, text: string) {
    expect(caught).toBeInstanceOf(SnowflakeFieldError);
    expect(caught).toBeInstanceOf(SnowkeyError);
    expect(caught).toMatchObject({
      name: 'SnowflakeFieldError',
      model,
      field,
      argument: `models.${model}`,
    });
    expect((caught as Error).message).toContain(text);
  }

  test('GIVEN Prisma.ModelName as the type argument THEN a misspelt model does not compile', () => {
    // The check is the compiler's (pnpm typecheck); at run time $extends reports it.
    // @ts-expect-error "Itme" is not a model of the client
    const extension = snowkey<Prisma.ModelName>({ generator, models: { Itme: 'id' } });
    expect(() => base.$extends(extension)).toThrow(SnowflakeFieldError);
  });

  test('GIVEN a client already extended by another extension THEN snowkey still reads its data model', () => {
    const other = base.$extends({ name: 'other', result: {} });
    expect(() => other.$extends(snowkey({ generator, models: { Item: 'id' } }))).not.toThrow();
    expect(() => snowkeyClient(other, { generator, models: { Item: 'id' } })).not.toThrow();
  });

  test.each([
    ['no options', undefined, 'options'],
    ['no generator', { models: { Item: 'id' } }, 'generator'],
    ['an empty models map', { generator, models: {} }, 'models'],
  ])('GIVEN %s THEN snowkeyClient() throws InvalidArgumentError naming "%s"', (_label, options, argument) => {
    const call = () => snowkeyClient(base, options as never);
    expect(call).toThrow(InvalidArgumentError);
    expect(call).toThrow(`"${argument}" must be`);
  });
});
