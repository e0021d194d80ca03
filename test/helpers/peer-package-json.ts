/** A peer's `package.json` as an adapter imports it: a JSON module whose default export is the manifest. */
export interface PeerPackageJson {
  readonly default: { readonly version: string } & Record<string, unknown>;
}

/**
 * Builds the module for a `vi.mock('<peer>/package.json', ...)` factory: the real manifest, whose
 * `version` is `version()` when that returns a string and the installed one otherwise, so a test
 * can present any peer version to the adapter's check and put the real one back.
 *
 * `vi.mock` is hoisted above the file's imports, so import this and keep the override through
 * `vi.hoisted`, which is hoisted with it.
 *
 * @example
 * const { peerPackageJson } = await vi.hoisted(() => import('@snowkey/test-harness/peer-package-json'));
 * const loaded = vi.hoisted(() => ({ version: undefined as string | undefined }));
 * vi.mock('knex/package.json', (importOriginal) => peerPackageJson(importOriginal, () => loaded.version));
 */
export async function peerPackageJson(
  importOriginal: () => Promise<unknown>,
  version: () => string | undefined,
): Promise<PeerPackageJson> {
  const real = ((await importOriginal()) as PeerPackageJson).default;
  return {
    default: {
      ...real,
      get version() {
        return version() ?? real.version;
      },
    },
  };
}
