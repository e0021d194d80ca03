import { runPlayShardCli } from '@snowkey/example-merge';
import { knexPlayer } from './knex-player.js';

// Plays one shard in this process; the demo runs one of these per game server.
await runPlayShardCli(knexPlayer, process.argv.slice(2));
