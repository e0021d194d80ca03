import type { Model, ModelStatic } from 'sequelize';
import { isSnowflakeAttribute } from './snowflake-id.js';

/** A snowflake attribute of a model: its name, and whether the column may hold NULL. */
export interface SnowflakeAttribute {
  readonly name: string;
  readonly nullable: boolean;
}

const cache = new WeakMap<object, readonly SnowflakeAttribute[]>();

/** The attributes declared with `SnowflakeId()` on `model`, looked up once per model. */
export function snowflakeAttributes(model: ModelStatic<Model>): readonly SnowflakeAttribute[] {
  let found = cache.get(model);
  if (!found) {
    found = Object.entries(model.getAttributes())
      .filter(([, attribute]) => isSnowflakeAttribute(attribute))
      .map(([name, attribute]) => ({ name, nullable: attribute.allowNull === true }));
    cache.set(model, found);
  }
  return found;
}
