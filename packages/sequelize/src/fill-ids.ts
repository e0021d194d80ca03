import type { IdGenerator } from '@snowkey/core';
import { generateOrKeep, takeIds } from '@snowkey/core/adapter';
import type { Model, ModelStatic } from 'sequelize';
import { snowflakeAttributes } from './snowflake-attributes.js';

/** Fills every empty snowflake attribute of the new `instances`, in order, by core's `generateOrKeep`. */
export function fillIds(generator: IdGenerator, instances: readonly Model[]): void {
  const targets: Model[] = [];
  const names: string[] = [];
  for (let i = 0; i < instances.length; i++) {
    const instance = instances[i]!;
    if (!instance.isNewRecord) continue;
    const model = instance.constructor as ModelStatic<Model>;
    for (const { name, nullable } of snowflakeAttributes(model)) {
      const value: unknown = instance.getDataValue(name);
      if (
        generateOrKeep(value, () => argumentName(model.name, name, instances.length, i), nullable) ===
        'generate'
      ) {
        targets.push(instance);
        names.push(name);
      }
    }
  }
  const ids = takeIds(generator, targets.length);
  for (let k = 0; k < targets.length; k++) {
    // The value as is (what `set` would compare, sanitize and hand to a setter is an id core has
    // just made), marked changed as `set` marks it, so a `fields` list keeps it.
    const instance = targets[k]!;
    instance.setDataValue(names[k]!, ids[k]);
    instance.changed(names[k]! as keyof Model, true);
  }
}

/** How an error names a caller's value: `Player.id` for one instance, `Player[3].id` among many. */
function argumentName(model: string, attribute: string, count: number, i: number): string {
  return count === 1 ? `${model}.${attribute}` : `${model}[${i}].${attribute}`;
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
