export { GAME_ENTITIES, Guild, GuildMember, Item, Mail, Player } from './game-entities.js';
export { TypeormGameWriter } from './typeorm-game-writer.js';
export { dataSourceOptions, typeormPlayer } from './typeorm-player.js';
