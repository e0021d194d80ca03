import { InvalidArgumentError } from '@snowkey/core';

/** `models` names a model or field the client lacks, or a field that is not a `BigInt` scalar. */
export class SnowflakeFieldError extends InvalidArgumentError {
  override name = 'SnowflakeFieldError';
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
