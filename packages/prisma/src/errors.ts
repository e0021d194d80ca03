import { InvalidArgumentError } from '@snowkey/core';

/**
 * The `models` option names a model or field that this Prisma client does not have, or a field
 * that cannot hold a snowflake id (it must be a `BigInt` scalar). Thrown by `$extends`, before
 * any query runs, so a typo or a schema change can never leave a table without ids.
 *
 * @example
 * prisma.$extends(snowkey({ generator, models: { Itme: 'id' } }));
 * // SnowflakeFieldError: "models.Itme" must be a model of this Prisma client: one of Match, Player (received "Itme")
 */
export class SnowflakeFieldError extends InvalidArgumentError {
  override readonly code: string = 'SNOWKEY_SNOWFLAKE_FIELD';
  /** The model name as given in `models`. */
  readonly model: string;
  /** The field name as given, or undefined when the model itself is unknown. */
  readonly field: string | undefined;
  constructor(model: string, field: string | undefined, expected: string, received: unknown) {
    super(`models.${model}`, expected, received);
    this.model = model;
    this.field = field;
  }
}
