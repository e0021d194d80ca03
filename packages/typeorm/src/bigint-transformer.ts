import { InvalidArgumentError, InvalidIdError } from '@snowkey/core';
import type { ValueTransformer } from 'typeorm';
import { IdPrecisionError } from './errors.js';

const MIN_BIGINT = -(1n << 63n);
const MAX_BIGINT = (1n << 63n) - 1n;
const INTEGER_TEXT = /^-?[0-9]+$/;

/**
 * Converts a BIGINT column exactly between the driver and a `bigint` property: writes take only
 * bigints, reads refuse an unsafe Number with an {@link IdPrecisionError}. For an `EntitySchema`.
 *
 * @example
 * new EntitySchema({ name: 'Item', columns: { ownerId: { type: 'bigint', transformer: bigintTransformer('Item.ownerId') } } });
 */
export function bigintTransformer(column = 'a bigint column'): ValueTransformer {
  return new BigIntTransformer(column);
}

/** The conversion itself, a class so a snowflake column's transformer can extend it. */
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
