import { Snowflake } from '@snowkey/core';
import { Column, Entity } from 'typeorm';
import { SnowflakeColumn } from '../../src/index.js';
import { recording } from './recording-generator.js';

/** The invoice-number column's own generator, given to the decorator itself (node 6). */
export const invoiceNumbers = recording(new Snowflake({ workerId: 6 }));

/**
 * An order with three snowflake columns from three generators: the key (the DataSource's
 * generator), an order number (the generator named "orders") and a nullable invoice number (a
 * generator of its own). Only an explicit null keeps the invoice number empty.
 */
@Entity('purchase_order')
export class PurchaseOrder {
  @SnowflakeColumn() id!: bigint;
  @SnowflakeColumn({ primary: false, unique: true, generator: 'orders', name: 'order_no' })
  orderNo!: bigint;
  @SnowflakeColumn({ primary: false, nullable: true, generator: invoiceNumbers, name: 'invoice_no' })
  invoiceNo!: bigint | null;
  @Column({ type: 'varchar', length: 100, unique: true }) note!: string;
}
