import { Column, type ColumnOptions } from 'typeorm';
import { BigIntTransformer } from './bigint-transformer.js';

/** Options of {@link BigIntColumn}: TypeORM's column options except the type and transformer it sets. */
export type BigIntColumnOptions = Omit<ColumnOptions, 'type' | 'transformer'>;

/**
 * A BIGINT column typed `bigint`, read and written exactly, never filled: for foreign keys.
 *
 * @example
 * @Entity()
 * class Item {
 *   @SnowflakeColumn() id!: bigint;
 *   @BigIntColumn({ name: 'owner_id' }) ownerId!: bigint;
 *   @ManyToOne(() => Player) @JoinColumn({ name: 'owner_id' }) owner!: Player;
 * }
 */
export function BigIntColumn(options: BigIntColumnOptions = {}): PropertyDecorator {
  return (target, propertyKey) => {
    const transformer = new BigIntTransformer(`${target.constructor.name}.${String(propertyKey)}`);
    Column({ ...options, type: 'bigint', transformer } as ColumnOptions)(target, propertyKey);
  };
}
