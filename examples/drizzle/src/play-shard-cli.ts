import { runPlayShardCli } from '@snowkey/example-merge';
import { drizzlePlayer } from './drizzle-player.js';

// Plays one shard in this process; the demo runs one of these per game server.
await runPlayShardCli(drizzlePlayer, process.argv.slice(2));
