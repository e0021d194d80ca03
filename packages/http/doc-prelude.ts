// The free variables of @snowkey/http's TSDoc examples and README fragments, declared with their
// types (what rustdoc's hidden `# ` lines do). A fragment is checked after an import of the names
// it uses from here; see CONTRIBUTING.md, "Docs are code". `@snowkey/http/express` and
// `@snowkey/http/fastify` both export `idErrorHandler`, so neither is re-exported here: an
// example imports it from its entry, as an application does.
import type { NodeLease, PublicIdCodec, Snowflake } from '@snowkey/core';
import type { Response as ExpressResponse } from 'express';
import type { FastifyReply } from 'fastify';

export { idReplacer, idReviver, parseId, publicIdCodec, snowkeyHealth } from '@snowkey/core';
export { default as express } from 'express';
export { default as Fastify } from 'fastify';
export type { ExpressResponseLike } from './src/express.js';
export { type AjvLike, type FastifyReplyLike, idJson, idParam, snowkeyAjv } from './src/fastify.js';
export * from './src/index.js';
export * from './src/nest.js';

/** What Express hands a handler as `res`, and Fastify as `reply`. */
export declare const expressResponse: ExpressResponse;
export declare const fastifyReply: FastifyReply;
/** The application's data access: a player by id, and an item made from a request body. */
export declare function findPlayer(id: bigint): Promise<{ id: bigint; name: string } | undefined>;
export declare function createItem(body: unknown): Promise<{ id: bigint; ownerId: bigint; label: string }>;
/** The public ids of players. */
export declare const playerIds: PublicIdCodec<'player'>;
/** The application's root Nest module. */
export declare class AppModule {}
/** A generator on a lease, for the health examples. */
export declare const gen: Snowflake;
export declare const lease: NodeLease;
