import { assertPeerVersion } from '@snowkey/core/adapter';
// Drizzle's public route to its version: the `drizzle-orm/version` entry (`npmVersion`).
import { npmVersion } from 'drizzle-orm/version';

/** The Drizzle versions this adapter supports; a test holds it equal to package.json's peerDependencies. */
export const DRIZZLE_RANGE = '^0.45.0';

/** The version of the Drizzle this adapter loads. */
export const drizzleVersion = (): string => npmVersion;

/** Throws an `UnsupportedPeerError` when drizzle-orm is outside {@link DRIZZLE_RANGE}. */
export function assertDrizzleVersion(): void {
  assertPeerVersion('@snowkey/drizzle', 'drizzle-orm', drizzleVersion(), DRIZZLE_RANGE);
}
