import type { DialectContext } from '@snowkey/test-harness';
import { afterAll, beforeAll } from 'vitest';
import { snowkey } from '../../src/index.js';
import type { Prisma } from '../generated/postgres/client/client.js';
import { counterGenerator } from './counter-generator.js';
import { createTestTables, openPrisma, type TestPrismaClient } from './prisma-test-client.js';

/** The snowflake fields of test/prisma/models.prisma; Shelf is deliberately absent. */
export const TEST_MODELS = {
  Item: 'id',
  Parent: 'id',
  Child: 'id',
  Profile: 'id',
  Toy: ['id', 'serial'],
  Stock: 'id',
} as const;

function extend(base: TestPrismaClient, generator: ReturnType<typeof counterGenerator>) {
  return base.$extends(snowkey<Prisma.ModelName>({ generator, models: TEST_MODELS }));
}

export type ExtendedPrisma = ReturnType<typeof extend>;

/**
 * Per dialect block: the tables, a plain client (`base`), and `prisma`, the same client extended
 * with a counter generator whose ids start above 2^53, so every write also proves precision.
 */
export function useExtendedPrisma(ctx: DialectContext) {
  const state = {} as {
    base: TestPrismaClient;
    prisma: ExtendedPrisma;
    generator: ReturnType<typeof counterGenerator>;
  };
  beforeAll(async () => {
    await createTestTables(ctx.db);
    state.base = await openPrisma(ctx.db);
    state.generator = counterGenerator(2n ** 53n + 16n);
    state.prisma = extend(state.base, state.generator);
  });
  afterAll(async () => {
    await state.base?.$disconnect();
  });
  return state;
}
