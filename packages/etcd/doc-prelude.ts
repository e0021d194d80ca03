// The free variables of @snowkey/etcd's TSDoc examples and README fragments, declared with their
// types (what rustdoc's hidden `# ` lines do). A fragment is checked after an import of the names
// it uses from here; see DEVELOPERS.md, "Docs are code".
import type { Etcd3 } from 'etcd3';

export { layouts, Snowflake } from '@snowkey/core';
export { Etcd3 } from 'etcd3';
export * from './src/index.js';

/** The application's etcd client, on every member of the cluster. */
export declare const client: Etcd3;
