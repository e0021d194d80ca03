/**
 * The base class of every error snowkey throws. `name` is the subclass's name, so
 * `err.name === 'InvalidArgumentError'` and `err instanceof SnowkeyError` both work,
 * across ESM and CJS copies alike (compare `name` when two copies may be loaded).
 *
 * @example
 * try { gen.nextId(); } catch (err) { if (err instanceof SnowkeyError) console.error(err.name, err.message); }
 */
export class SnowkeyError extends Error {
  /**
   * A stable identifier of the kind of error, `SNOWKEY_` and upper snake case, for code that
   * switches on it (the CLI maps it to an exit status). Each subclass sets its own.
   */
  readonly code: string = 'SNOWKEY_ERROR';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    Object.setPrototypeOf(this, new.target.prototype);
  }
}

/** Renders a received value for an error message: `40`, `"abc"`, `12n`, `null`, `object`. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string')
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) {
    return String(value);
  }
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  if (typeof value === 'function') return 'a function';
  return `an object (${Object.prototype.toString.call(value).slice(8, -1)})`;
}

/**
 * A bad argument: names the argument, what was received and what was expected.
 *
 * @example
 * new Snowflake({ workerId: 40 });
 * // InvalidArgumentError: "workerId" must be an integer in 0..31 (received 40)
 */
export class InvalidArgumentError extends SnowkeyError {
  override readonly code: string = 'SNOWKEY_INVALID_ARGUMENT';
  readonly argument: string;
  readonly received: unknown;
  readonly expected: string;
  constructor(argument: string, expected: string, received: unknown) {
    super(`"${argument}" must be ${expected} (received ${describeValue(received)})`);
    this.argument = argument;
    this.expected = expected;
    this.received = received;
  }
}

/**
 * One bit field of a layout as the validator saw it.
 *
 * @example
 * err.fields; // [{ name: 'timestamp', bits: 37 }, { name: 'serverId', bits: 20 }, { name: 'sequence', bits: 16 }]
 */
export interface LayoutFieldReport {
  readonly name: string;
  readonly bits: unknown;
}

/**
 * A layout that cannot be built: a width that is not a positive integer, a duplicate or
 * reserved field name, or fields that do not fit in 64 bits. The message lists every field and the total.
 *
 * @example
 * defineLayout({ timestampBits: 37, nodeBits: { serverId: 20 }, sequenceBits: 16 });
 * // InvalidLayoutError: layout needs more than 64 bits: timestamp 37 + serverId 20 + sequence 16 = 73
 */
export class InvalidLayoutError extends SnowkeyError {
  override readonly code: string = 'SNOWKEY_INVALID_LAYOUT';
  readonly fields: readonly LayoutFieldReport[];
  readonly totalBits: number;
  constructor(reason: string, fields: readonly LayoutFieldReport[], totalBits: number) {
    super(`${reason}: ${fields.map((f) => `${f.name} ${String(f.bits)}`).join(' + ')} = ${totalBits}`);
    this.fields = fields;
    this.totalBits = totalBits;
  }
}

/**
 * The clock went back further than the generator tolerates. Nothing was issued.
 *
 * @example
 * // clock reads 5 s earlier than the last id's timestamp, tolerance 10 ms:
 * // ClockMovedBackwardsError: clock moved backwards by 5000 ms (last id at 1735689605000, clock reads 1735689600000; tolerance 10 ms)
 */
export class ClockMovedBackwardsError extends SnowkeyError {
  override readonly code: string = 'SNOWKEY_CLOCK_MOVED_BACKWARDS';
  readonly lastTimestamp: number;
  readonly clockTimestamp: number;
  readonly backwardsMs: number;
  readonly toleranceMs: number;
  constructor(lastTimestamp: number, clockTimestamp: number, toleranceMs: number) {
    const back = lastTimestamp - clockTimestamp;
    super(
      `clock moved backwards by ${back} ms (last id at ${lastTimestamp}, clock reads ${clockTimestamp}; tolerance ${toleranceMs} ms)`,
    );
    this.lastTimestamp = lastTimestamp;
    this.clockTimestamp = clockTimestamp;
    this.backwardsMs = back;
    this.toleranceMs = toleranceMs;
  }
}

/**
 * The time is outside the layout's range: before its epoch, or past the last timestamp its
 * field can hold. Ids never wrap around.
 *
 * @example
 * // TimestampOutOfRangeError: timestamp 2094-09-07T15:47:35.552Z is past the end of layout "snowkey" (last 2094-09-07T15:47:35.551Z)
 */
export class TimestampOutOfRangeError extends SnowkeyError {
  override readonly code: string = 'SNOWKEY_TIMESTAMP_OUT_OF_RANGE';
  readonly timestamp: number;
  readonly minTimestamp: number;
  readonly maxTimestamp: number;
  /** The argument that held the time, when a caller gave it (`"from"`, `"to"`). */
  readonly argument: string | undefined;
  constructor(
    layoutName: string,
    timestamp: number,
    minTimestamp: number,
    maxTimestamp: number,
    argument?: string,
  ) {
    const iso = (ms: number) => (Number.isFinite(ms) ? new Date(ms).toISOString() : String(ms));
    super(
      (argument === undefined ? '' : `"${argument}": `) +
        (timestamp < minTimestamp
          ? `timestamp ${iso(timestamp)} is before the epoch of layout "${layoutName}" (${iso(minTimestamp)})`
          : `timestamp ${iso(timestamp)} is past the end of layout "${layoutName}" (last ${iso(maxTimestamp)})`),
    );
    this.argument = argument;
    this.timestamp = timestamp;
    this.minTimestamp = minTimestamp;
    this.maxTimestamp = maxTimestamp;
  }
}

/**
 * A value that is not a valid id where one was expected from outside (JSON, a URL, a form, a
 * row): not a key in 1..2^63-1, a non-canonical string (sign, spaces, leading zeros, fraction), an
 * unsafe Number, null... In an HTTP handler it means the client sent a bad id: `@snowkey/http`
 * answers it with a 400.
 *
 * @example
 * parseId('12a'); // InvalidIdError: "id" must be a bigint in 1..2^63-1: a decimal string of digits ... (received "12a")
 */
export class InvalidIdError extends InvalidArgumentError {
  override readonly code: string = 'SNOWKEY_INVALID_ID';
}

const PUBLIC_ID_FAULTS = {
  type: 'it is not a string',
  length: 'it does not have 14 characters',
  character: 'it has a character outside 0-9, A-Z, a-z without l (case matters)',
  check: 'the typo check does not match: a character is wrong, or two are swapped',
  key: 'its first character is the id of a key the codec does not hold: a retired key, or another deployment',
  range: 'it stands for no key',
  foreign:
    'the keyed check does not match: a public id of another entity, or of another key with that key id',
} as const;

/**
 * A string that is not a public id of the codec's entity (see `publicIdCodec`). `fault` says
 * what is wrong: `'length'`, `'character'`, `'check'` (a typo: the typo check character does not
 * match), `'key'` (made with a key the codec does not hold), `'foreign'` (the keyed check does not
 * match: another entity's or key's public id), `'range'` (well-formed, but no key's), `'type'`
 * (not a string). An {@link InvalidIdError}, so `@snowkey/http` answers it with a 400 like any bad id.
 *
 * @example
 * const orders = publicIdCodec({ key: '000102030405060708090a0b0c0d0e0f', entity: 'order' });
 * orders.decode('08qHcZnkfven3R'); // one typo away from orders.encode(175928847299117063n), '08qHcZnkfven3Q'
 * // InvalidPublicIdError: "publicId" must be a public id of "order": 14 characters ... (the typo check does not match: ...) (received "08qHcZnkfven3R")
 */
export class InvalidPublicIdError extends InvalidIdError {
  override readonly code: string = 'SNOWKEY_INVALID_PUBLIC_ID';
  readonly entity: string;
  readonly fault: keyof typeof PUBLIC_ID_FAULTS;
  constructor(argument: string, entity: string, fault: keyof typeof PUBLIC_ID_FAULTS, received: unknown) {
    super(
      argument,
      `a public id of "${entity}": 14 characters of 0-9, A-Z, a-z without l (a key id, 11 digits, a keyed check and a typo check) (${PUBLIC_ID_FAULTS[fault]})`,
      received,
    );
    this.entity = entity;
    this.fault = fault;
  }
}

/**
 * The generator was stopped from issuing an id by its fence: a lease that expired or could
 * not be renewed in time. Nothing was issued; retry after the lease is renewed.
 *
 * @example
 * try { gen.nextId(); } catch (err) { if (err instanceof LeaseExpiredError) await lease.renew(); }
 */
export class LeaseExpiredError extends SnowkeyError {
  override readonly code: string = 'SNOWKEY_LEASE_EXPIRED';
  readonly nodeId: number;
  readonly expiresAt: number;
  constructor(message: string, nodeId: number, expiresAt: number, options?: { cause?: unknown }) {
    super(message, options);
    this.nodeId = nodeId;
    this.expiresAt = expiresAt;
  }
}

/**
 * A node id could not be leased: every id in the range is held, or the database refused.
 *
 * @example
 * // WorkerIdLeaseError: every node id 0..1023 of layout "snowkey" is held in "snowkey_node_leases" (1024 live leases); ...
 */
export class WorkerIdLeaseError extends SnowkeyError {
  override readonly code: string = 'SNOWKEY_WORKER_ID_LEASE';
  readonly table: string;
  readonly detail: string;
  constructor(message: string, table: string, detail: string, options?: { cause?: unknown }) {
    super(message, options);
    this.table = table;
    this.detail = detail;
  }
}

/**
 * The generator had to wait for its clock to reach a time unit and the clock did not get there
 * within the bound (an injected clock that stands still, or a wait longer than the tolerance).
 * Nothing was issued.
 *
 * @example
 * new Snowflake({ workerId: 1, clock: () => 1767225600000 }).nextIds(10_000);
 * // ClockStalledError: clock did not reach ... within 2000 ms ...
 */
export class ClockStalledError extends SnowkeyError {
  override readonly code: string = 'SNOWKEY_CLOCK_STALLED';
  readonly waitingFor: number;
  readonly clockTimestamp: number;
  constructor(waitingFor: number, clockTimestamp: number, boundMs: number) {
    super(
      `clock did not reach ${waitingFor} within ${boundMs} ms (it reads ${clockTimestamp}); the sequence is exhausted and the generator will not wait longer`,
    );
    this.waitingFor = waitingFor;
    this.clockTimestamp = clockTimestamp;
  }
}

/**
 * After an upsert, a row could not be found again by the values of its conflict columns, or was
 * found more than once, so the id it holds in the database is unknown. Raised by the adapters that
 * read the stored ids back after an upsert (`@snowkey/knex`, `@snowkey/kysely`, `@snowkey/drizzle`),
 * inside the upsert's transaction, so when that transaction rolls back nothing was written. Usual
 * causes: the update rewrote a conflict column, or on MySQL the row collided on a different unique
 * key than the one named (`ON DUPLICATE KEY` fires on any unique key).
 *
 * @example
 * // UpsertReadBackError: after the upsert into "players", row 0 matched 0 rows by name (expected exactly 1), so its stored id is unknown
 * const error = new UpsertReadBackError('players', 0, ['name'], 0);
 */
export class UpsertReadBackError extends SnowkeyError {
  override readonly code: string = 'SNOWKEY_UPSERT_READ_BACK';
  readonly table: string;
  readonly rowIndex: number;
  readonly conflictColumns: readonly string[];
  readonly matches: number;
  constructor(table: string, rowIndex: number, conflictColumns: readonly string[], matches: number) {
    super(
      `after the upsert into "${table}", row ${rowIndex} matched ${matches} rows by ${conflictColumns.join(', ')} (expected exactly 1), so its stored id is unknown`,
    );
    this.table = table;
    this.rowIndex = rowIndex;
    this.conflictColumns = conflictColumns;
    this.matches = matches;
  }
}

/**
 * A `SqlClient` did not run a statement because its connection is inside a transaction it did
 * not open (the application's, on the one connection an ORM keeps for SQLite). Run there, a
 * segment taken or a lease renewed would roll back with that transaction after the ids were
 * handed out. Nothing ran; the segment allocator retries after `retryMs`, a lease at its next
 * renewal. Core reports it as the `cause` of a `SegmentStoreError` or `WorkerIdLeaseError`.
 *
 * @example
 * // SegmentStoreError: could not take a segment ... (cause: ConnectionInTransactionError: the sqlite connection is inside a transaction ...)
 */
export class ConnectionInTransactionError extends SnowkeyError {
  override readonly code: string = 'SNOWKEY_CONNECTION_IN_TRANSACTION';
  readonly dialect: string;
  readonly sql: string;
  constructor(dialect: string, sql: string) {
    super(
      `the ${dialect} connection is inside a transaction snowkey did not open, so the statement did not run (it would commit or roll back with that transaction): ${sql}`,
    );
    this.dialect = dialect;
    this.sql = sql;
  }
}
