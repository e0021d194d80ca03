import { EXAMPLE_FLAGS_HELP, runExampleCli } from '@snowkey/example-merge';
import { prismaPlayer } from './prisma-player.js';

process.exitCode = await runExampleCli(
  {
    title: 'snowkey 合服 with Prisma',
    usage: `pnpm --filter @snowkey/example-prisma start [-- flags]\n\nGame servers written through a Prisma client extended with @snowkey/prisma, merged and verified.\n${EXAMPLE_FLAGS_HELP}`,
    defaults: { prefix: 'snowkey_prisma', players: 1000, adapters: ['prisma'] },
    players: (_opts, serverIds) => serverIds.map(() => prismaPlayer),
  },
  process.argv.slice(2),
);
