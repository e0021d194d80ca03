import { type IdGenerator, InvalidArgumentError } from '@snowkey/core';
import { assertIdGenerator } from '@snowkey/core/adapter';
import type { Model, ModelStatic, Sequelize } from 'sequelize';
import { SnowflakeConfigError } from './errors.js';
import { emptySnowflakes, fillIds } from './fill-ids.js';
import { assertSequelizeVersion } from './peer-version.js';
import { precisionProblems } from './precision.js';
import { isSnowflakeAttribute, restoreInheritedDefault } from './snowflake-id.js';
import { readBackUpsert } from './upsert-read-back.js';

/** Options of {@link attachSnowflakes}. */
export interface AttachSnowflakesOptions {
  /** Hands out the ids: a `Snowflake`, a segment allocator, or anything with `nextId(): bigint`. */
  generator: IdGenerator;
}

const attached = new WeakSet<Sequelize>();

/**
 * Installs hooks that fill every `SnowflakeId()` attribute of every model before the INSERT, on
 * every create path; a driver set up to round BIGINT is a {@link SnowflakeConfigError} here.
 *
 * @example
 * const sequelize = new Sequelize(process.env.DATABASE_URL!);
 * attachSnowflakes(sequelize, { generator: new Snowflake({ workerId: 1 }) });
 */
export function attachSnowflakes(sequelize: Sequelize, options: AttachSnowflakesOptions): void {
  assertSequelizeVersion();
  if (typeof (sequelize as { addHook?: unknown } | null)?.addHook !== 'function') {
    throw new InvalidArgumentError('sequelize', 'a Sequelize instance', sequelize);
  }
  if (options === null || typeof options !== 'object') {
    throw new InvalidArgumentError('options', 'an object with "generator"', options);
  }
  const { generator } = options;
  assertIdGenerator(generator);
  if (attached.has(sequelize)) {
    throw new InvalidArgumentError(
      'sequelize',
      'a Sequelize instance snowkey is not attached to yet',
      'one it is attached to',
    );
  }
  const problems = precisionProblems(sequelize);
  if (problems.length > 0) throw new SnowflakeConfigError(problems);
  attached.add(sequelize);

  for (const model of Object.values(sequelize.models)) restoreDefaults(model);
  sequelize.addHook('afterDefine', 'snowkey', restoreDefaults);

  // Validation runs before beforeCreate, and NOT NULL is checked there: fill before it. beforeCreate
  // covers `validate: false`; upsert and findOrCreate go through validate and create.
  sequelize.addHook('beforeValidate', 'snowkey', (instance: Model) => fillIds(generator, [instance]));
  sequelize.addHook('beforeCreate', 'snowkey', (instance: Model) => fillIds(generator, [instance]));
  sequelize.addHook('beforeBulkCreate', 'snowkey', (instances: Model[]) => fillIds(generator, instances));
  // Model.upsert takes its INSERT values before this hook; with `validate: false` nothing filled them.
  sequelize.addHook('beforeUpsert', 'snowkey', (_values, upsert) => {
    // Sequelize passes the instance it built in the options (its typings leave it out).
    const instance = (upsert as { instance?: Model }).instance;
    const empty = instance ? emptySnowflakes(instance) : [];
    if (empty.length > 0) {
      throw new InvalidArgumentError(
        'options.validate',
        `true (the default) for an upsert whose ${empty.join(', ')} is left to snowkey: Sequelize takes an upsert's INSERT values before beforeUpsert, so only its validation step can fill them`,
        false,
      );
    }
  });
  sequelize.addHook('afterUpsert', 'snowkey', async (result, upsert) => {
    const [record] = result as unknown as [Model];
    await readBackUpsert(record, upsert as Parameters<typeof readBackUpsert>[1]);
  });
}

/** See {@link restoreInheritedDefault}: every snowflake attribute of `model` keeps its default. */
function restoreDefaults(model: ModelStatic<Model>): void {
  for (const attribute of Object.values(model.getAttributes())) {
    if (isSnowflakeAttribute(attribute)) restoreInheritedDefault(attribute);
  }
}
