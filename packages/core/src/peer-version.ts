import { SnowkeyError } from './errors.js';
import { satisfiesVersionRange } from './version-range.js';

/** An adapter found its `peer` at a version (`found`) outside its range (`expected`). */
export class UnsupportedPeerError extends SnowkeyError {
  override name = 'UnsupportedPeerError';
  override readonly code: string = 'SNOWKEY_UNSUPPORTED_PEER';
  readonly adapter: string;
  readonly peer: string;
  readonly found: string;
  readonly expected: string;
  constructor(adapter: string, peer: string, found: string, expected: string) {
    super(`${adapter} needs ${peer} ${expected} (found ${peer} ${found})`);
    this.adapter = adapter;
    this.peer = peer;
    this.found = found;
    this.expected = expected;
  }
}

/** Throws an {@link UnsupportedPeerError} when `found` is outside `range`. */
export function assertPeerVersion(adapter: string, peer: string, found: string, range: string): void {
  if (!satisfiesVersionRange(found, range)) throw new UnsupportedPeerError(adapter, peer, found, range);
}
