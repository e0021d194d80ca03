import { EXAMPLE_FLAGS_HELP } from './cli-options.js';
import { runExampleCli } from './example-cli.js';
import { plainSnowflakePlayer } from './plain-player.js';
import { ADAPTER_EXAMPLES, spawnedPlayer } from './spawned-player.js';

const USAGE = `pnpm demo [-- flags]

The 合服 demo: game servers with snowflake keys play (each through an adapter example, in its own
process), merge into one database, and the merge is verified row by row; then the same game with
AUTO_INCREMENT, ticket-server and segment-allocator keys, for contrast.
${EXAMPLE_FLAGS_HELP}  --adapters LIST              who plays the servers, round robin: ${ADAPTER_EXAMPLES.join(', ')}, or plain
                               (core's Snowflake on plain Knex); default typeorm,prisma,knex
`;

process.exitCode = await runExampleCli(
  {
    title: 'snowkey 合服 demo',
    usage: USAGE,
    defaults: { prefix: 'snowkey_demo', players: 1000, adapters: ['typeorm', 'prisma', 'knex'] },
    players: (opts, serverIds) =>
      serverIds.map((_, i) => {
        const name = opts.adapters[i % opts.adapters.length]!;
        return name === 'plain' ? plainSnowflakePlayer : spawnedPlayer(name);
      }),
  },
  process.argv.slice(2),
);
