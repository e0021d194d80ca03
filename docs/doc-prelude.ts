// The free variables of the docs pages' fragments, declared with their types (what rustdoc's
// hidden `# ` lines do). A fragment is checked after an import of the names it uses from here;
// see CONTRIBUTING.md, "Docs are code". The Prisma client is the one the checker generates from
// the pages' schema (model Order).

import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { bigint, integer, pgTable } from 'drizzle-orm/pg-core';
import type { Knex } from 'knex';
import type { Kysely } from 'kysely';
import { Model } from 'sequelize';
import type { DataSource } from 'typeorm';
import type { PrismaClient } from './.doctest/generated/prisma/client.js';

/** The start and the end of a time range, both inclusive. */
export declare const from: Date;
export declare const to: Date;

/** TypeORM: the application's DataSource and its entity for the orders table. */
export declare const dataSource: DataSource;
export declare class OrderEntity {
  id: bigint;
  total: number;
}

/** Prisma: the client generated from the page's schema. */
export declare const prisma: PrismaClient;

/** Knex: the application's instance. */
export declare const knex: Knex;

/** Drizzle: the orders table and the database over a pg pool. */
export const orders = pgTable('orders', {
  id: bigint({ mode: 'bigint' }).primaryKey(),
  total: integer().notNull(),
});
export declare const drizzleDb: NodePgDatabase;

/** Kysely: the application's instance over its tables. */
export interface Database {
  orders: { id: bigint; total: number };
}
export declare const kysely: Kysely<Database>;

/** Sequelize: the model of the orders table. */
export class Order extends Model {
  declare id: bigint;
  declare total: number;
}
