import { type IdGenerator, InvalidArgumentError } from '@snowkey/core';
import { assertIdGenerator } from '@snowkey/core/adapter';
import type { DataSource, EntityMetadata, EntitySubscriberInterface } from 'typeorm';
import { driverPrecisionProblems } from './driver-precision.js';
import { SnowflakeConfigError } from './errors.js';

import { type SnowflakeColumnSpec, snowflakeSpecOf } from './snowflake-column.js';
import { isSnowflakeSubscriber, type SnowflakeFill, SnowflakeSubscriber } from './snowflake-subscriber.js';

/** Options of {@link attachSnowflakes}. */
export interface AttachSnowflakesOptions {
  /** Fills every `@SnowflakeColumn` that names no generator of its own. */
  generator?: IdGenerator;
  /** Named generators, for `@SnowflakeColumn({ generator: 'name' })`. */
  generators?: Readonly<Record<string, IdGenerator>>;
}

/** Options waiting for `initialize()`, per DataSource whose `initialize` was wrapped. */
const pending = new WeakMap<DataSource, AttachSnowflakesOptions>();

/**
 * Makes `dataSource` fill every empty `@SnowflakeColumn` before the INSERT, on every insert path;
 * a bad set-up is a {@link SnowflakeConfigError} when the DataSource is initialised.
 *
 * @example
 * const dataSource = new DataSource({ type: 'postgres', url, entities: [Player] });
 * await dataSource.initialize();
 * attachSnowflakes(dataSource, { generator: new Snowflake({ workerId: 1 }) });
 * const player = await dataSource.getRepository(Player).save({ name: 'Aria' }); // player.id: 175928847299117063n
 */
export function attachSnowflakes(dataSource: DataSource, options: AttachSnowflakesOptions): void {
  checkOptions(options);
  if (dataSource.isInitialized) {
    install(dataSource, options);
    return;
  }
  const wrapped = pending.has(dataSource);
  pending.set(dataSource, options);
  if (wrapped) return;
  const initialize = dataSource.initialize.bind(dataSource);
  dataSource.initialize = async () => {
    await initialize();
    try {
      install(dataSource, pending.get(dataSource)!);
    } catch (err) {
      await dataSource.destroy();
      throw err;
    }
    return dataSource;
  };
}

function checkOptions(options: AttachSnowflakesOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError('options', 'an object such as { generator }', options);
  }
  if (options.generator !== undefined) assertIdGenerator(options.generator, 'generator');
  for (const [name, generator] of Object.entries(options.generators ?? {})) {
    assertIdGenerator(generator, `generators.${name}`);
  }
}

function install(dataSource: DataSource, options: AttachSnowflakesOptions): void {
  const problems = driverPrecisionProblems(dataSource);
  const plan = new Map<EntityMetadata, SnowflakeFill[]>();
  for (const metadata of dataSource.entityMetadatas) {
    for (const column of metadata.columns) {
      const spec = snowflakeSpecOf(column);
      if (!spec) continue;
      const label = `${metadata.name}.${column.propertyPath}`;
      const generator = resolveGenerator(spec, options, label, problems);
      checkColumn(spec, label, column.relationMetadata !== undefined, problems);
      if (generator) {
        const fills = plan.get(metadata) ?? [];
        fills.push({ column, generator, keepNull: spec.nullable, label });
        plan.set(metadata, fills);
      }
    }
  }
  if (plan.size === 0 && problems.length === 0) {
    const names = dataSource.entityMetadatas.map((m) => m.name).join(', ') || 'none';
    problems.push(`no entity of this DataSource has a @SnowflakeColumn (entities: ${names})`);
  }
  if (problems.length > 0) throw new SnowflakeConfigError(problems);

  const subscribers = dataSource.subscribers as EntitySubscriberInterface[];
  const previous = subscribers.findIndex(isSnowflakeSubscriber);
  const subscriber = new SnowflakeSubscriber(plan);
  if (previous === -1) subscribers.push(subscriber);
  else subscribers[previous] = subscriber;
}

function resolveGenerator(
  spec: SnowflakeColumnSpec,
  options: AttachSnowflakesOptions,
  label: string,
  problems: string[],
): IdGenerator | undefined {
  const own = spec.generator;
  if (typeof own === 'string') {
    const named = options.generators?.[own];
    if (!named) {
      const known = Object.keys(options.generators ?? {});
      problems.push(
        `${label} asks for the generator "${own}" but attachSnowflakes got ${known.length ? `only ${known.map((k) => `"${k}"`).join(', ')}` : 'no named generators'}: pass \`generators: { ${own}: ... }\``,
      );
    }
    return named;
  }
  const generator = own ?? options.generator;
  if (!generator) {
    problems.push(
      `${label} has no generator: pass \`generator\` to attachSnowflakes(dataSource, { generator }) or give the column its own`,
    );
  }
  return generator;
}

function checkColumn(
  spec: SnowflakeColumnSpec,
  label: string,
  isForeignKey: boolean,
  problems: string[],
): void {
  const type = spec.designType;
  // TypeScript records a union such as `bigint | null` as Object, so a nullable column typed that way passes.
  const unionOfNullable = spec.nullable && type === Object;
  if (type !== undefined && type !== BigInt && !unionOfNullable) {
    const name = typeof type === 'function' ? type.name : String(type);
    problems.push(
      `${label} is typed ${name} but a snowflake column must be typed bigint (declare it \`${label.split('.').pop()}!: bigint\`)`,
    );
  }
  if (isForeignKey) {
    problems.push(
      `${label} is a relation's join column; a foreign key must not get new ids: declare it with @BigIntColumn instead of @SnowflakeColumn`,
    );
  }
}
