// The free variables of this example's README fragments, which quote its source (see
// CONTRIBUTING.md, "Docs are code").
export { layouts, Snowflake } from '@snowkey/core';
export { attachSnowflakes } from '@snowkey/typeorm';
export { DataSource } from 'typeorm';
export { GAME_ENTITIES } from './src/game-entities.js';

/** The game server's database URL. */
export declare const url: string;
