export { defineGameModels, Guild, GuildMember, Item, Mail, Player } from './game-models.js';
export { SequelizeGameWriter } from './sequelize-game-writer.js';
export { openGameSequelize, sequelizePlayer } from './sequelize-player.js';
