export { drizzleGameWriter, drizzlePlayer } from './drizzle-player.js';
export { type MySqlGameTables, mysqlGameTables } from './mysql-game-tables.js';
export { MySqlGameWriter } from './mysql-game-writer.js';
export { type PgGameTables, pgGameTables } from './pg-game-tables.js';
export { PgGameWriter } from './pg-game-writer.js';
export { type SQLiteGameTables, sqliteGameTables } from './sqlite-game-tables.js';
export { SQLiteGameWriter } from './sqlite-game-writer.js';
