// The free variables of @snowkey/prisma's TSDoc examples and README fragments, declared with
// their types (what rustdoc's hidden `# ` lines do). A fragment is checked after an import of the
// names it uses from here; see CONTRIBUTING.md, "Docs are code". The client is the one the checker
// generates from the README's schema (models Player and Match), as an application's own.
import type { PrismaPg } from '@prisma/adapter-pg';
import type { IdGenerator } from '@snowkey/core';
import type { PrismaClient } from './.doctest/generated/prisma/client.js';

export { Snowflake } from '@snowkey/core';
export { Prisma, PrismaClient } from './.doctest/generated/prisma/client.js';
export * from './src/index.js';

/** A driver adapter, a client without the extension, and a generator. */
export declare const adapter: PrismaPg;
export declare const prisma: PrismaClient;
export declare const generator: IdGenerator;
/** A row read back, a request body and the route parameters of a web request. */
export declare const player: { id: bigint; name: string };
export declare const body: string;
export declare const req: { params: { id: string } };
/** The extension's models option, as in the README's first block. */
export declare const models: { Player: 'id'; Match: 'id'; Replay: ['id', 'shareId'] };
