import { assertPeerVersion } from '@snowkey/core/adapter';
// Sequelize's public route to its version: its package.json, which its exports map lists.
import sequelizePackage from 'sequelize/package.json' with { type: 'json' };

/** The Sequelize versions this adapter supports; a test holds it equal to package.json's peerDependencies. */
export const SEQUELIZE_RANGE = '^6.37.0';

/** The version of the Sequelize this adapter loads. */
export const sequelizeVersion = (): string => sequelizePackage.version;

/** Throws an `UnsupportedPeerError` when Sequelize is outside {@link SEQUELIZE_RANGE}. */
export function assertSequelizeVersion(): void {
  assertPeerVersion('@snowkey/sequelize', 'sequelize', sequelizeVersion(), SEQUELIZE_RANGE);
}
