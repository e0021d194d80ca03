// The free variables of this example's README fragments, which quote its source (see
// CONTRIBUTING.md, "Docs are code").
export { layouts, Snowflake } from '@snowkey/core';
export { snowkeyKnex, withBigintReads } from '@snowkey/knex';
export { default as knex } from 'knex';

/** The game server's database URL. */
export declare const url: string;
