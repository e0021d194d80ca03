import { runPlayShardCli } from '@snowkey/example-merge';
import { typeormPlayer } from './typeorm-player.js';

// Plays one shard in this process; the demo runs one of these per game server.
await runPlayShardCli(typeormPlayer, process.argv.slice(2));
