/**
 * The base class of every error snowkey throws. `name` is the class's name (`'InvalidIdError'`),
 * even in a bundle whose minifier renamed the class: compare it, not `instanceof`, when both the
 * ESM and the CJS copy may be loaded.
 *
 * @example
 * try { gen.nextId(); } catch (err) { if (err instanceof SnowkeyError) console.error(err.name, err.message); }
 */
export class SnowkeyError extends Error {
  // Each subclass declares its name as a string, like its code: a minifier renames classes, so
  // `new.target.name` would read `Ra` in a user's production bundle.
  override name = 'SnowkeyError';
  /** A stable `SNOWKEY_...` code to switch on (the CLI maps it to an exit status). */
  readonly code: string = 'SNOWKEY_ERROR';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
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

/** A bad argument: names the argument, what was received and what was expected. */
export class InvalidArgumentError extends SnowkeyError {
  override name = 'InvalidArgumentError';
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

/** One bit field of a layout as the validator saw it. */
export interface LayoutFieldReport {
  readonly name: string;
  readonly bits: unknown;
}

/** A layout that cannot be built; the message lists every field and the total. */
export class InvalidLayoutError extends SnowkeyError {
  override name = 'InvalidLayoutError';
  override readonly code: string = 'SNOWKEY_INVALID_LAYOUT';
  readonly fields: readonly LayoutFieldReport[];
  readonly totalBits: number;
  constructor(reason: string, fields: readonly LayoutFieldReport[], totalBits: number) {
    super(`${reason}: ${fields.map((f) => `${f.name} ${String(f.bits)}`).join(' + ')} = ${totalBits}`);
    this.fields = fields;
    this.totalBits = totalBits;
  }
}

/** The clock went back further than the generator tolerates. Nothing was issued. */
export class ClockMovedBackwardsError extends SnowkeyError {
  override name = 'ClockMovedBackwardsError';
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

/** The time is before the layout's epoch or past its last timestamp. Ids never wrap around. */
export class TimestampOutOfRangeError extends SnowkeyError {
  override name = 'TimestampOutOfRangeError';
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

/** A value from outside (JSON, URL, row) that is not a valid id; `@snowkey/http` answers it with a 400. */
export class InvalidIdError extends InvalidArgumentError {
  override name = 'InvalidIdError';
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

/** A string that is not a public id of the codec's entity; `fault` says what is wrong. */
export class InvalidPublicIdError extends InvalidIdError {
  override name = 'InvalidPublicIdError';
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

/** The generator's lease expired or was not renewed in time. Nothing was issued; retry after a renewal. */
export class LeaseExpiredError extends SnowkeyError {
  override name = 'LeaseExpiredError';
  override readonly code: string = 'SNOWKEY_LEASE_EXPIRED';
  readonly nodeId: number;
  readonly expiresAt: number;
  constructor(message: string, nodeId: number, expiresAt: number, options?: { cause?: unknown }) {
    super(message, options);
    this.nodeId = nodeId;
    this.expiresAt = expiresAt;
  }
}

/** A node id could not be leased: every id in the range is held, or the database refused. */
export class WorkerIdLeaseError extends SnowkeyError {
  override name = 'WorkerIdLeaseError';
  override readonly code: string = 'SNOWKEY_WORKER_ID_LEASE';
  readonly table: string;
  readonly detail: string;
  constructor(message: string, table: string, detail: string, options?: { cause?: unknown }) {
    super(message, options);
    this.table = table;
    this.detail = detail;
  }
}

/** The clock did not reach the time unit the generator waited for within the bound. Nothing was issued. */
export class ClockStalledError extends SnowkeyError {
  override name = 'ClockStalledError';
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
 * After an upsert, a row matched zero or several rows by its conflict columns, so its stored id is
 * unknown. Thrown inside the upsert's transaction. Usual causes: the update rewrote a conflict
 * column, or on MySQL `ON DUPLICATE KEY` fired on a different unique key than the one named.
 */
export class UpsertReadBackError extends SnowkeyError {
  override name = 'UpsertReadBackError';
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
 * A `SqlClient` refused a statement on a connection inside the application's transaction: a
 * segment or lease written there would roll back after its ids were handed out. Nothing ran.
 */
export class ConnectionInTransactionError extends SnowkeyError {
  override name = 'ConnectionInTransactionError';
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
