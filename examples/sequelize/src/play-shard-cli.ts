import { runPlayShardCli } from '@snowkey/example-merge';
import { sequelizePlayer } from './sequelize-player.js';

// Plays one shard in this process; the demo runs one of these per game server.
await runPlayShardCli(sequelizePlayer, process.argv.slice(2));
