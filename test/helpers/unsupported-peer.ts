import { UnsupportedPeerError } from '@snowkey/core';
import { expect } from 'vitest';

/** The peer an adapter refused, as an `UnsupportedPeerError` carries it. */
export interface RefusedPeer {
  readonly adapter: string;
  readonly peer: string;
  readonly found: string;
  readonly expected: string;
}

/**
 * Asserts that `setUp` throws an `UnsupportedPeerError` for exactly `refused`: the adapter's
 * set-up refuses a peer version outside its range, by class, code and fields.
 *
 * @example
 * expectUnsupportedPeer(() => snowkeyKnex(db, options), { adapter: '@snowkey/knex', peer: 'knex', found: '2.5.1', expected: '^3.0.1' });
 */
export function expectUnsupportedPeer(setUp: () => unknown, refused: RefusedPeer): void {
  let error: unknown;
  try {
    setUp();
  } catch (err) {
    error = err;
  }
  expect(error).toBeInstanceOf(UnsupportedPeerError);
  expect(error).toMatchObject({ name: 'UnsupportedPeerError', code: 'SNOWKEY_UNSUPPORTED_PEER', ...refused });
}
