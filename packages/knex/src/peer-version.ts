import { assertPeerVersion } from '@snowkey/core/adapter';
// Knex's public route to its version: its package.json (Knex has no exports map; `knex.VERSION`
// is typed but not set at run time).
import knexPackage from 'knex/package.json' with { type: 'json' };

/** The Knex versions this adapter supports; a test holds it equal to package.json's peerDependencies. */
export const KNEX_RANGE = '^3.0.1';

/** The version of the Knex this adapter loads. */
export const knexVersion = (): string => knexPackage.version;

/** Throws an `UnsupportedPeerError` when Knex is outside {@link KNEX_RANGE}. */
export function assertKnexVersion(): void {
  assertPeerVersion('@snowkey/knex', 'knex', knexVersion(), KNEX_RANGE);
}
