import type { IdGenerator } from '@snowkey/core';
import { callerIdAction, takeIds } from '@snowkey/core/adapter';
import type { Model, ModelStatic } from 'sequelize';
import { snowflakeAttributes } from './snowflake-attributes.js';

/**
 * Fills every empty snowflake attribute of the new `instances`, in order, from `generator`. What a
 * caller put there follows core's one rule (`callerIdAction`): empty gets an id, a bigint in
 * 1..2^63-1 is kept, anything else is refused with an InvalidArgumentError naming the model and
 * attribute, before any id is taken. Instances loaded from the database are left alone.
 */
export function fillIds(generator: IdGenerator, instances: readonly Model[]): void {
  const missing: Array<[instance: Model, attribute: string]> = [];
  instances.forEach((instance, i) => {
    if (!instance.isNewRecord) return;
    const model = instance.constructor as ModelStatic<Model>;
    for (const { name, nullable } of snowflakeAttributes(model)) {
      const argument = instances.length === 1 ? `${model.name}.${name}` : `${model.name}[${i}].${name}`;
      if (callerIdAction(instance.getDataValue(name), argument, nullable) === 'generate') {
        missing.push([instance, name]);
      }
    }
  });
  const ids = takeIds(generator, missing.length);
  missing.forEach(([instance, name], k) => {
    // `set`, not `setDataValue`: the attribute is marked changed, so a `fields` list keeps it.
    instance.set(name, ids[k]);
  });
}

/** The snowflake attributes of a new instance that are still empty (NULL is empty unless allowed). */
export function emptySnowflakes(instance: Model): string[] {
  const model = instance.constructor as ModelStatic<Model>;
  return snowflakeAttributes(model)
    .filter(({ name, nullable }) => {
      const value = instance.getDataValue(name);
      return value === undefined || (value === null && !nullable);
    })
    .map(({ name }) => `${model.name}.${name}`);
}
