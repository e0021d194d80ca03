// Prisma's public route to its version: `Prisma.prismaVersion.client` of the runtime the
// generated clients load (`@prisma/client`).
import { Prisma } from '@prisma/client/extension';
import { assertPeerVersion } from '@snowkey/core/adapter';

/** The Prisma Client versions this adapter supports; a test holds it equal to package.json's peerDependencies. */
export const PRISMA_CLIENT_RANGE = '^7.0.0';

/** The version of the `@prisma/client` this adapter loads. */
export const prismaClientVersion = (): string => Prisma.prismaVersion.client;

/** Throws an `UnsupportedPeerError` when `@prisma/client` is outside {@link PRISMA_CLIENT_RANGE}. */
export function assertPrismaClientVersion(): void {
  assertPeerVersion('@snowkey/prisma', '@prisma/client', prismaClientVersion(), PRISMA_CLIENT_RANGE);
}
