export { GAME_ID_COLUMNS, type GameDatabase, KyselyGameWriter } from './kysely-game-writer.js';
export { kyselyDialectFor, kyselyPlayer } from './kysely-player.js';
