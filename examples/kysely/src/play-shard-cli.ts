import { runPlayShardCli } from '@snowkey/example-merge';
import { kyselyPlayer } from './kysely-player.js';

// Plays one shard in this process; the demo runs one of these per game server.
await runPlayShardCli(kyselyPlayer, process.argv.slice(2));
