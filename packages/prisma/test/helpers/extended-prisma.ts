import type { DialectContext } from '@snowkey/test-harness';
import { afterAll, beforeAll } from 'vitest';
import { snowkey, snowkeyClient } from '../../src/index.js';
import type { Prisma } from '../generated/postgres/client/client.js';
import { counterGenerator } from './counter-generator.js';
import {
  createTestTables,
  loadTestDataModel,
  openPrisma,
  type TestPrismaClient,
} from './prisma-test-client.js';

/** The snowflake fields of test/prisma/models.prisma; Shelf is deliberately absent. */
export const TEST_MODELS = {
  Item: 'id',
  Parent: 'id',
  Child: 'id',
  Profile: 'id',
  Toy: ['id', 'serial'],
  Stock: 'id',
} as const;

/** What test/prisma/models.prisma's generator block wrote: the `dataModel` option of every test. */
export const TEST_DATA_MODEL = await loadTestDataModel();

function extend(base: TestPrismaClient, generator: ReturnType<typeof counterGenerator>) {
  return base.$extends(
    snowkey<Prisma.ModelName>({ generator, models: TEST_MODELS, dataModel: TEST_DATA_MODEL }),
  );
}

export type ExtendedPrisma = ReturnType<typeof extend>;

/**
 * The ways of attaching snowkey to a client, which every write test runs through:
 * `$extends(snowkey())` on a plain client (it fills in front of Prisma, as the wrapper does),
 * `$extends(snowkey())` behind another query extension on every operation (it runs as a Prisma
 * query extension), and the `snowkeyClient()` wrapper.
 */
export const ATTACH_MODES = ['extension', 'extension behind a query extension', 'client wrapper'] as const;
export type AttachMode = (typeof ATTACH_MODES)[number];

/** `base` with a query extension that runs on every operation of every model and only calls `query(args)`. */
export function withPassThroughQuery(base: TestPrismaClient): TestPrismaClient {
  return base.$extends({
    query: { $allModels: { $allOperations: ({ args, query }) => query(args) } },
  }) as unknown as TestPrismaClient;
}

function attach(mode: AttachMode, base: TestPrismaClient, generator: ReturnType<typeof counterGenerator>) {
  if (mode === 'extension') return extend(base, generator);
  if (mode === 'extension behind a query extension') return extend(withPassThroughQuery(base), generator);
  // The wrapper returns the client's own type; the tests are typed against the extension's, which
  // has the same model methods (the wrapper's types are checked by its README and TSDoc examples).
  return snowkeyClient(base, {
    generator,
    models: TEST_MODELS,
    dataModel: TEST_DATA_MODEL,
  }) as unknown as ExtendedPrisma;
}

/**
 * Per dialect block: the tables, a plain client (`base`), and `prisma`, the same client with
 * snowkey attached the `mode` way and a counter generator whose ids start above 2^53, so every
 * write also proves precision.
 */
export function useExtendedPrisma(ctx: DialectContext, mode: AttachMode = 'extension') {
  const state = {} as {
    base: TestPrismaClient;
    prisma: ExtendedPrisma;
    generator: ReturnType<typeof counterGenerator>;
  };
  beforeAll(async () => {
    await createTestTables(ctx.db);
    state.base = await openPrisma(ctx.db);
    state.generator = counterGenerator(2n ** 53n + 16n);
    state.prisma = attach(mode, state.base, state.generator);
  });
  afterAll(async () => {
    await state.base?.$disconnect();
  });
  return state;
}
