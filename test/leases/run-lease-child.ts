import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type JsonChild, startJsonChild } from '../helpers/json-child.js';
import type { TestDatabase } from '../helpers/test-database.js';

const CHILD = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'lease-child.ts');

/** One `lease-child.ts` process (see {@link JsonChild}); `go()` is the go-ahead for LEASE_WAIT_FOR_GO=1. */
export type LeaseChild = JsonChild;

/** Starts `fixtures/lease-child.ts` against `db` with the given LEASE_* settings. */
export function startLeaseChild(db: TestDatabase, settings: Record<string, string | number>): LeaseChild {
  return startJsonChild(CHILD, { LEASE_DIALECT: db.dialect, LEASE_URL: db.filename ?? db.url, ...settings });
}
