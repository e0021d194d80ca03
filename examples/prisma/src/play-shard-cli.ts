import { runPlayShardCli } from '@snowkey/example-merge';
import { prismaPlayer } from './prisma-player.js';

// Plays one shard in this process; the demo runs one of these per game server.
await runPlayShardCli(prismaPlayer, process.argv.slice(2));
