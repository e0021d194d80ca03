import { InvalidArgumentError, Snowflake, SnowkeyError } from '@snowkey/core';
import { beforeAll, describe, expect, test } from 'vitest';
import { SnowflakeFieldError, snowkey, snowkeyClient } from '../src/index.js';
import type { Prisma } from './generated/postgres/client/client.js';
import { TEST_DATA_MODEL } from './helpers/extended-prisma.js';
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
    ['a dataModel without models', { generator, models: { Item: 'id' }, dataModel: {} }, 'dataModel'],
    [
      'a dataModel model without fields',
      { generator, models: { Item: 'id' }, dataModel: { models: [{ name: 'Item' }] } },
      'dataModel.models[0]',
    ],
    [
      'a dataModel field without a type',
      {
        generator,
        models: { Item: 'id' },
        dataModel: { models: [{ name: 'Item', fields: [{ name: 'id', kind: 'scalar' }] }] },
      },
      'dataModel.models[0].fields[0]',
    ],
    [
      // The shape of a DMMF rebuilt from a client's runtime data model (prisma-client-js's Prisma.dmmf).
      'a dataModel relation without relationFromFields',
      {
        generator,
        models: { Item: 'id' },
        dataModel: {
          models: [{ name: 'A', fields: [{ name: 'b', kind: 'object', type: 'B', relationName: 'AToB' }] }],
        },
      },
      'dataModel.models[0].fields[0].relationFromFields',
    ],
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
    'GIVEN %s THEN $extends(snowkey()) and snowkeyClient() throw SnowflakeFieldError before any query, with or without dataModel',
    (_label, models, model, field, text) => {
      const dataModel = TEST_DATA_MODEL;
      const attachments = [
        () => base.$extends(snowkey({ generator, models })),
        () => snowkeyClient(base, { generator, models }),
        () => base.$extends(snowkey({ generator, models, dataModel })),
        () => snowkeyClient(base, { generator, models, dataModel }),
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

  test('GIVEN a dataModel with a model the client has no delegate for THEN both throw InvalidArgumentError naming "dataModel"', () => {
    const stale = { models: [...TEST_DATA_MODEL.models, { name: 'Ghost', fields: [] }] };
    for (const attach of [
      () => base.$extends(snowkey({ generator, models: { Item: 'id' }, dataModel: stale })),
      () => snowkeyClient(base, { generator, models: { Item: 'id' }, dataModel: stale }),
    ]) {
      expect(attach).toThrow(InvalidArgumentError);
      expect(attach).toThrow('"dataModel" must be the data model of this client\'s schema');
      expect(attach).toThrow('(received "model Ghost")');
    }
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
