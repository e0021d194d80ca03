// Nest's public route to its versions: each package's package.json, which Nest 12's exports maps
// list (Nest 11 has no exports map).
import nestCommonPackage from '@nestjs/common/package.json' with { type: 'json' };
import nestCorePackage from '@nestjs/core/package.json' with { type: 'json' };
import { assertPeerVersion } from '@snowkey/core/adapter';

/** The Nest versions this module supports; a test holds them equal to package.json's peerDependencies. */
export const NEST_RANGES = {
  '@nestjs/common': '^11.0.0 || ^12.0.0',
  '@nestjs/core': '^11.0.0 || ^12.0.0',
} as const;

/** The versions of the Nest packages this module loads. */
export const nestVersions = (): Record<keyof typeof NEST_RANGES, string> => ({
  '@nestjs/common': nestCommonPackage.version,
  '@nestjs/core': nestCorePackage.version,
});

/** Throws an `UnsupportedPeerError` when `@nestjs/common` or `@nestjs/core` is outside its range. */
export function assertNestVersions(): void {
  const found = nestVersions();
  for (const peer of ['@nestjs/common', '@nestjs/core'] as const) {
    assertPeerVersion('@snowkey/nest', peer, found[peer], NEST_RANGES[peer]);
  }
}
