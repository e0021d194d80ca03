// Nest's public route to its version: @nestjs/common's package.json, which Nest 12's exports map
// lists (Nest 11 has no exports map).
import nestCommonPackage from '@nestjs/common/package.json' with { type: 'json' };
import { assertPeerVersion } from '@snowkey/core/adapter';

/** The `@nestjs/common` versions `@snowkey/http/nest` supports; a test holds it equal to package.json's peerDependencies. */
export const NEST_COMMON_RANGE = '^11.0.0 || ^12.0.0';

/** The version of the `@nestjs/common` this entry loads. */
export const nestCommonVersion = (): string => nestCommonPackage.version;

/** Throws an `UnsupportedPeerError` when `@nestjs/common` is outside {@link NEST_COMMON_RANGE}. */
export function assertNestCommonVersion(): void {
  assertPeerVersion('@snowkey/http', '@nestjs/common', nestCommonVersion(), NEST_COMMON_RANGE);
}
