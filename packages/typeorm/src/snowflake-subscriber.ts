import type { IdGenerator } from '@snowkey/core';
import { generateOrKeep, takeId } from '@snowkey/core/adapter';
import type { EntityMetadata, EntitySubscriberInterface, InsertEvent } from 'typeorm';

/** One snowflake column of one entity, and where its ids come from. */
export interface SnowflakeFill {
  readonly column: EntityMetadata['columns'][number];
  readonly generator: IdGenerator;
  /** A nullable non-primary column: an explicit null is the caller's value and is kept. */
  readonly keepNull: boolean;
  /** `Entity.property`, for messages (built once, not per row). */
  readonly label: string;
}

const SUBSCRIBER = Symbol.for('@snowkey/typeorm/subscriber');

/**
 * Fills empty snowflake columns in TypeORM's `beforeInsert` event. TypeORM broadcasts that event
 * from the persistence layer for `save()` (every entity it is about to insert, cascaded ones
 * included, before any INSERT runs, so foreign keys see the parents' ids) and from
 * `InsertQueryBuilder.execute()` for every value set, which is the path of `repository.insert`,
 * `manager.insert` and `createQueryBuilder().insert().values(...)`. Only `save(..., { listeners: false })`
 * and `.callListeners(false)` switch it off.
 */
export class SnowflakeSubscriber implements EntitySubscriberInterface<unknown> {
  readonly [SUBSCRIBER] = true;
  readonly #plan: ReadonlyMap<EntityMetadata, readonly SnowflakeFill[]>;

  constructor(plan: ReadonlyMap<EntityMetadata, readonly SnowflakeFill[]>) {
    this.#plan = plan;
  }

  beforeInsert(event: InsertEvent<unknown>): void {
    const fills = this.#plan.get(event.metadata);
    const entity = event.entity as object | undefined;
    if (!fills || !entity) return;
    for (const { column, generator, keepNull, label } of fills) {
      const value: unknown = column.getEntityValue(entity);
      // Core's one rule: empty gets an id, a key is kept, anything else is refused before the INSERT.
      if (generateOrKeep(value, label, keepNull) === 'generate') {
        column.setEntityValue(entity, takeId(generator));
      }
    }
  }
}

/** Whether `subscriber` is a {@link SnowflakeSubscriber}, from this copy of the package or another. */
export function isSnowflakeSubscriber(subscriber: unknown): boolean {
  return typeof subscriber === 'object' && subscriber !== null && SUBSCRIBER in subscriber;
}
