// The free variables of @snowkey/nest's TSDoc examples and README fragments, declared with their
// types (what rustdoc's hidden `# ` lines do). A fragment is checked after an import of the names
// it uses from here; see CONTRIBUTING.md, "Docs are code".

import type { HealthCheckService } from '@nestjs/terminus';
import type { pgSqlClient } from '@snowkey/core';
import type { DataSource } from 'typeorm';
import type { SnowkeyService } from './src/index.js';
import type { SnowkeyHealthIndicator } from './src/terminus.js';

export { Controller, Get, Inject, Injectable, Module } from '@nestjs/common';
export { type IdGenerator, kubernetesPodIndex, layouts, pgSqlClient, Snowflake } from '@snowkey/core';
export { leaseEtcdNodeId } from '@snowkey/etcd';
export { knexSqlClient } from '@snowkey/knex';
export { prismaSqlClient } from '@snowkey/prisma';
export { typeormSqlClient } from '@snowkey/typeorm';
export { DataSource } from 'typeorm';
export * from './src/index.js';
export * from './src/terminus.js';

/** The application's TypeORM DataSource, Knex instance, Prisma client and pg pool. */
export declare const dataSource: DataSource;
export declare const knex: import('knex').Knex;
export declare const prisma: import('@snowkey/prisma').PrismaRawQueryable;
export declare const pool: Parameters<typeof pgSqlClient>[0];
/** The application's etcd3 client. */
export declare const etcd: import('etcd3').Etcd3;
/** The module's service, injected. */
export declare const snowkey: SnowkeyService;
/** The application's data access. */
export declare function findPlayer(id: bigint): Promise<{ id: bigint; name: string } | null>;
/** terminus's HealthCheckService and the module's indicator, injected. */
export declare const health: HealthCheckService;
export declare const indicator: SnowkeyHealthIndicator;
