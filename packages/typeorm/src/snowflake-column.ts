import { type IdGenerator, InvalidArgumentError } from '@snowkey/core';
import { assertKey, isIdGenerator } from '@snowkey/core/adapter';
import { Column, type EntityMetadata, PrimaryColumn } from 'typeorm';
import { BigIntTransformer } from './bigint-transformer.js';

/** Options of {@link SnowflakeColumn}. */
export interface SnowflakeColumnOptions {
  /** The primary key (default) or an ordinary column, such as an order number. */
  primary?: boolean;
  /** This column's own generator, or the name of one in `attachSnowflakes`'s `generators`. */
  generator?: IdGenerator | string;
  /** The column's name in the database. Default: TypeORM's naming strategy. */
  name?: string;
  /** Non-primary columns only: may the column hold NULL. An explicit null is then kept. */
  nullable?: boolean;
  /** Non-primary columns only: add a UNIQUE constraint. */
  unique?: boolean;
  comment?: string;
}

const SNOWFLAKE = Symbol.for('@snowkey/typeorm/snowflake-column');

/** What the decorator learnt about a snowflake column; read back by `attachSnowflakes`. */
export interface SnowflakeColumnSpec {
  /** `Class.property` where the decorator was written. */
  readonly declaredAt: string;
  readonly generator: IdGenerator | string | undefined;
  /** The property's `design:type` when the compiler emitted it (tsc with emitDecoratorMetadata). */
  readonly designType: unknown;
  readonly nullable: boolean;
}

/**
 * A snowflake column's transformer: the exact bigint conversion plus the column's spec, branded.
 * A value written or searched for must be a key (core's rule: a bigint in 1..2^63-1), so a
 * `find` or `save` with a string, a Number or a negative id fails before any SQL runs.
 */
class SnowflakeColumnTransformer extends BigIntTransformer {
  readonly [SNOWFLAKE]: SnowflakeColumnSpec;
  constructor(spec: SnowflakeColumnSpec) {
    super(spec.declaredAt);
    this[SNOWFLAKE] = spec;
  }

  override to(value: unknown): unknown {
    return value === null || value === undefined ? value : assertKey(value, this.column);
  }
}

/**
 * A BIGINT snowflake id column typed `bigint`, filled before the INSERT when empty; a caller's id is kept.
 *
 * @example
 * @Entity()
 * class Player {
 *   @SnowflakeColumn() id!: bigint;                                         // primary key
 *   @SnowflakeColumn({ primary: false, unique: true, generator: 'orders' }) orderNo!: bigint;
 * }
 */
export function SnowflakeColumn(options: SnowflakeColumnOptions = {}): PropertyDecorator {
  const primary = options.primary ?? true;
  checkOptions(options, primary);
  return (target, propertyKey) => {
    const declaredAt = `${target.constructor.name}.${String(propertyKey)}`;
    const transformer = new SnowflakeColumnTransformer({
      declaredAt,
      generator: options.generator,
      designType: designTypeOf(target, propertyKey),
      nullable: !primary && options.nullable === true,
    });
    const common = { type: 'bigint' as const, transformer, name: options.name, comment: options.comment };
    if (primary) PrimaryColumn(common)(target, propertyKey);
    else Column({ ...common, nullable: options.nullable, unique: options.unique })(target, propertyKey);
  };
}

/** The spec of a column declared with {@link SnowflakeColumn}, or undefined for any other column. */
export function snowflakeSpecOf(column: EntityMetadata['columns'][number]): SnowflakeColumnSpec | undefined {
  const transformer = column.transformer as
    | Partial<Record<typeof SNOWFLAKE, SnowflakeColumnSpec>>
    | undefined;
  return transformer?.[SNOWFLAKE];
}

function checkOptions(options: SnowflakeColumnOptions, primary: boolean): void {
  if (primary && options.nullable) {
    throw new InvalidArgumentError(
      'nullable',
      'false or absent on a primary snowflake column',
      options.nullable,
    );
  }
  if (primary && options.unique !== undefined) {
    throw new InvalidArgumentError(
      'unique',
      'absent on a primary snowflake column (it is unique)',
      options.unique,
    );
  }
  const g = options.generator;
  if (g !== undefined && !isGeneratorName(g) && !isIdGenerator(g)) {
    throw new InvalidArgumentError(
      'generator',
      'an IdGenerator (an object with nextId(): bigint) or the non-empty name of one',
      g,
    );
  }
}

function isGeneratorName(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

type MetadataReader = (key: string, target: object, property: string | symbol) => unknown;

function designTypeOf(target: object, propertyKey: string | symbol): unknown {
  const read = (Reflect as unknown as { getMetadata?: MetadataReader }).getMetadata;
  return read ? read('design:type', target, propertyKey) : undefined;
}
