export { GAME_ID_COLUMNS, KnexGameWriter } from './knex-game-writer.js';
export { knexConfig, knexPlayer } from './knex-player.js';
