import { InvalidArgumentError, InvalidIdError } from '@snowkey/core';
import type { ValueTransformer } from 'typeorm';
import { IdPrecisionError } from './errors.js';

const MIN_BIGINT = -(1n << 63n);
const MAX_BIGINT = (1n << 63n) - 1n;
const INTEGER_TEXT = /^-?[0-9]+$/;

/**
 * Converts a BIGINT column exactly between the driver and a `bigint` property. Writes pass the
 * bigint to the driver unchanged (pg, mysql2 and better-sqlite3 all bind it without loss); a
 * value that is not a bigint in the signed BIGINT range (a Number, a string) is refused, since ids
 * are bigint end to end and strings become ids only through `parseId` at the edge.
 * Reads accept what the drivers return — a string (pg, mysql2 with `bigNumberStrings`), a bigint
 * (better-sqlite3 with safe integers), a safe Number — and reject an unsafe Number with an
 * {@link IdPrecisionError} instead of rounding it.
 *
 * `@SnowflakeColumn` and `@BigIntColumn` use it; use it yourself in an `EntitySchema`.
 *
 * @example
 * new EntitySchema({ name: 'Item', columns: { ownerId: { type: 'bigint', transformer: bigintTransformer('Item.ownerId') } } });
 */
export function bigintTransformer(column = 'a bigint column'): ValueTransformer {
  return new BigIntTransformer(column);
}

/**
 * The conversion itself, a class so a snowflake column's transformer can extend it. Internal:
 * applications use {@link bigintTransformer}.
 *
 * @example
 * const t = new BigIntTransformer('Item.ownerId');
 * t.from('9223372036854775807'); // 9223372036854775807n
 * t.from(2 ** 60);               // IdPrecisionError: Item.ownerId came back from the driver as the Number ...
 */
export class BigIntTransformer implements ValueTransformer {
  /** `Entity.property`, for messages. */
  readonly column: string;
  constructor(column: string) {
    this.column = column;
  }

  to(value: unknown): unknown {
    if (value === null || value === undefined) return value;
    if (typeof value !== 'bigint' || value < MIN_BIGINT || value > MAX_BIGINT) {
      throw new InvalidArgumentError(
        this.column,
        'a bigint that fits a signed BIGINT, -2^63..2^63-1 (parseId() turns a decimal string into one)',
        value,
      );
    }
    return value;
  }

  from(value: unknown): unknown {
    if (value === null || value === undefined) return value;
    if (typeof value === 'bigint') return value;
    if (typeof value === 'string' && INTEGER_TEXT.test(value)) return BigInt(value);
    if (typeof value === 'number') {
      if (!Number.isSafeInteger(value)) throw new IdPrecisionError(this.column, value);
      return BigInt(value);
    }
    throw new InvalidIdError(
      this.column,
      'a BIGINT value from the driver (string, bigint or safe Number)',
      value,
    );
  }
}
