// The free variables of this example's README fragments, which quote its source (see
// CONTRIBUTING.md, "Docs are code"). The example generates its Prisma client on first use, so the
// client class is declared here by the shape the fragment uses.
export { PrismaPg } from '@prisma/adapter-pg';
export { layouts, Snowflake } from '@snowkey/core';
export { snowkey } from '@snowkey/prisma';

/** The game server's database URL, and the client generated from prisma/game.prisma. */
export declare const url: string;
export declare const PrismaClient: new (options: {
  adapter: object;
}) => { $extends(extension: unknown): unknown };
