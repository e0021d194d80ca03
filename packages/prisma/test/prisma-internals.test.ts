import { describeEachDialect } from '@snowkey/test-harness';
import { beforeAll, describe, expect, test } from 'vitest';
import { snowkeyClient } from '../src/index.js';
import { hasWriteQueryCallbacks, readActiveProvider, readRuntimeDataModel } from '../src/prisma-internals.js';
import { counterGenerator } from './helpers/counter-generator.js';
import { TEST_MODELS, withPassThroughQuery } from './helpers/extended-prisma.js';
import {
  createTestTables,
  openPrisma,
  openUnconnectedPrisma,
  type TestPrismaClient,
} from './helpers/prisma-test-client.js';

// The private properties snowkey reads, on a client Prisma generated (the workspace's Prisma; the
// prisma-pg consumer app runs them at both ends of the peer range).
describe('the Prisma internals snowkey reads, on a generated client', () => {
  let base: TestPrismaClient;
  beforeAll(async () => {
    base = await openUnconnectedPrisma();
  });

  test('GIVEN a generated client THEN _runtimeDataModel lists its models with name, kind and type of every field', () => {
    const { models } = readRuntimeDataModel(base);
    expect(Object.keys(models).sort()).toEqual([
      'Child',
      'Item',
      'Note',
      'Parent',
      'Profile',
      'Shelf',
      'Stock',
      'Toy',
    ]);
    expect(models.Child?.fields.map(({ name, kind, type }) => ({ name, kind, type }))).toEqual([
      { name: 'id', kind: 'scalar', type: 'BigInt' },
      { name: 'parentId', kind: 'scalar', type: 'BigInt' },
      { name: 'label', kind: 'scalar', type: 'String' },
      { name: 'parent', kind: 'object', type: 'Parent' },
      { name: 'toys', kind: 'object', type: 'Toy' },
    ]);
  });

  test('GIVEN a generated client and an extended one THEN _activeProvider names the provider it was generated for', () => {
    expect(readActiveProvider(base)).toBe('sqlite');
    expect(readActiveProvider(base.$extends({ name: 'other' }))).toBe('sqlite');
  });

  test('GIVEN a client without and with a query extension THEN _extensions tells them apart', () => {
    const models = Object.keys(TEST_MODELS);
    expect(hasWriteQueryCallbacks(base, models)).toBe(false);
    expect(hasWriteQueryCallbacks(withPassThroughQuery(base), models)).toBe(true);
  });

  test('GIVEN something that is not a generated client THEN reading its data model throws, naming dataModel as the way out', () => {
    expect(() => readRuntimeDataModel({})).toThrow('pass `dataModel`');
  });
});

describeEachDialect('@snowkey/prisma without the dataModel option', (ctx) => {
  let base: TestPrismaClient;
  beforeAll(async () => {
    await createTestTables(ctx.db);
    base = await openPrisma(ctx.db);
    return () => base.$disconnect();
  });

  test('GIVEN a create of a child that creates its parent THEN both rows get ids, the child first (the order of the arguments)', async () => {
    const generator = counterGenerator(2n ** 53n + 16n);
    const prisma = snowkeyClient(base, { generator, models: TEST_MODELS });
    const first = generator.peek();
    const child = await prisma.child.create({
      data: { label: 'no-data-model', parent: { create: { name: 'nd' } } },
    });
    expect(child.id).toBe(first);
    expect(await ctx.db.query('SELECT id FROM sk_parent WHERE name = ?', ['nd'])).toEqual([
      { id: String(first + 1n) },
    ]);
  });
});

// Prisma's extension list is not a public API: what snowkey does when it looks different.
describe('hasWriteQueryCallbacks()', () => {
  const models = ['Player', 'MatchRound'];
  const clientWith = (getAllQueryCallbacks?: (delegate: string, operation: string) => unknown) =>
    getAllQueryCallbacks ? { _extensions: { getAllQueryCallbacks } } : {};

  test('GIVEN no extension list THEN it answers yes (the query extension, which is always right)', () => {
    expect(hasWriteQueryCallbacks(clientWith(), models)).toBe(true);
    expect(hasWriteQueryCallbacks({ _extensions: {} }, models)).toBe(true);
  });

  test('GIVEN a list that is not an array THEN it answers yes', () => {
    expect(
      hasWriteQueryCallbacks(
        clientWith(() => undefined),
        models,
      ),
    ).toBe(true);
  });

  test('GIVEN no callback on any write THEN it answers no, having asked for every model given, by its delegate name, and every write', () => {
    const asked: string[] = [];
    const client = clientWith((delegate, operation) => {
      asked.push(`${delegate}.${operation}`);
      return [];
    });
    expect(hasWriteQueryCallbacks(client, models)).toBe(false);
    expect(asked).toEqual(
      ['player', 'matchRound'].flatMap((d) =>
        ['create', 'createMany', 'createManyAndReturn', 'upsert', 'update'].map((op) => `${d}.${op}`),
      ),
    );
  });

  test('GIVEN a callback on one write of one model THEN it answers yes', () => {
    const client = clientWith((delegate, operation) =>
      delegate === 'matchRound' && operation === 'upsert' ? [() => undefined] : [],
    );
    expect(hasWriteQueryCallbacks(client, models)).toBe(true);
  });

  test('GIVEN a callback only on a write of a model not given (one whose writes hold no snowflake id) THEN it answers no', () => {
    const client = clientWith((delegate) => (delegate === 'auditEntry' ? [() => undefined] : []));
    expect(hasWriteQueryCallbacks(client, models)).toBe(false);
    expect(hasWriteQueryCallbacks(client, [...models, 'AuditEntry'])).toBe(true);
  });
});
