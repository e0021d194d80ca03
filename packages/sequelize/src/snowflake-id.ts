import { parseId } from '@snowkey/core';
import { DataTypes, type Model, type ModelAttributeColumnOptions } from 'sequelize';
import { IdPrecisionError } from './errors.js';

/** Marks an attribute whose value snowkey generates. */
export const SNOWFLAKE = Symbol.for('@snowkey/sequelize/snowflake-id');

/** Whether a model attribute was declared with {@link SnowflakeId} (or is a copy of one). */
export function isSnowflakeAttribute(attribute: object): boolean {
  return (attribute as { [SNOWFLAKE]?: true })[SNOWFLAKE] === true;
}

/** Options of {@link SnowflakeId}: Sequelize's own column options, less what the id decides itself. */
export type SnowflakeIdOptions = Omit<
  ModelAttributeColumnOptions,
  'type' | 'defaultValue' | 'autoIncrement' | 'get' | 'set'
>;

/** Options of {@link BigIntKey}: Sequelize's own column options. */
export type BigIntKeyOptions = Omit<ModelAttributeColumnOptions, 'type' | 'autoIncrement' | 'get'>;

/**
 * A snowflake id attribute, BIGINT read back as an exact `bigint` (the primary key unless
 * `primaryKey: false`), filled by `attachSnowflakes` before every INSERT.
 *
 * @example
 * Player.init({ id: SnowflakeId(), name: DataTypes.STRING }, { sequelize });
 * Item.init({ id: SnowflakeId(), serialNo: SnowflakeId({ primaryKey: false, unique: true }) }, { sequelize });
 */
export function SnowflakeId(options: SnowflakeIdOptions = {}): ModelAttributeColumnOptions {
  const attribute = Object.create(INHERITED) as Record<PropertyKey, unknown>;
  return Object.assign(attribute, {
    primaryKey: true,
    allowNull: false,
    ...options,
    type: DataTypes.BIGINT,
    get: bigintGetter,
    [SNOWFLAKE]: true,
  }) as ModelAttributeColumnOptions;
}

/**
 * A BIGINT attribute read back as an exact `bigint`, never filled: for foreign keys.
 *
 * @example
 * Member.init({ id: SnowflakeId(), guildId: BigIntKey({ allowNull: false, field: 'guild_id' }) }, { sequelize });
 */
export function BigIntKey(options: BigIntKeyOptions = {}): ModelAttributeColumnOptions {
  return { ...options, type: DataTypes.BIGINT, get: bigintGetter };
}

function noDefault(): undefined {
  return undefined;
}

/**
 * The default every `SnowflakeId()` attribute inherits, not owns. Sequelize reads a primary key's
 * `defaultValue` with a plain property read where it decides whether an upsert's INSERT keeps the
 * key and whether `save({ fields })` adds it, so there it sees a default that is a function and never
 * schemable (no DEFAULT in the DDL either), and keeps the column; the hooks put the id in first. It
 * builds its per-instance defaults only from attributes that own one, so a new instance costs what it
 * costs with a hand-set key. `constructor: Object` keeps the attribute a plain object to lodash.
 */
const INHERITED = { constructor: Object, defaultValue: noDefault };

/**
 * Gives a `SnowflakeId()` attribute back the default it inherits when a copy lost it (`{ ...SnowflakeId() }`
 * copies own properties only): without it an upsert would drop the key from its INSERT.
 */
export function restoreInheritedDefault(attribute: object): void {
  if (!('defaultValue' in attribute)) Object.setPrototypeOf(attribute, INHERITED);
}

/** Sequelize calls a getter with the instance as `this` and the attribute name first. */
function bigintGetter(this: Model, key?: unknown): unknown {
  const name = key as string;
  const value: unknown = this.getDataValue(name);
  if (value === null || value === undefined || typeof value === 'bigint') return value;
  const attribute = `${this.constructor.name}.${name}`;
  if (typeof value === 'number' && !Number.isSafeInteger(value)) throw new IdPrecisionError(attribute, value);
  return parseId(value, attribute);
}
