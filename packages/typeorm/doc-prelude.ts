// The free variables of @snowkey/typeorm's TSDoc examples and README fragments, declared with
// their types (what rustdoc's hidden `# ` lines do). A fragment is checked after an import of the
// names it uses from here; see CONTRIBUTING.md, "Docs are code".
import type { DataSource, EntitySchema } from 'typeorm';

export { layouts, leaseNodeId, Snowflake } from '@snowkey/core';
export { Column, DataSource, Entity, EntitySchema, JoinColumn, ManyToOne, OneToMany } from 'typeorm';
// Internal names some examples show.
export { BigIntTransformer } from './src/bigint-transformer.js';
export * from './src/index.js';

/** The application's DataSource, its URL and its entities. */
export declare const dataSource: DataSource;
export declare const url: string;
export declare const entities: Array<Function | string | EntitySchema>;
/** An entity of the application. */
export declare class Player {
  id: bigint;
  name: string;
}
