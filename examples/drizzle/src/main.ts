import { EXAMPLE_FLAGS_HELP, runExampleCli } from '@snowkey/example-merge';
import { drizzlePlayer } from './drizzle-player.js';

process.exitCode = await runExampleCli(
  {
    title: 'snowkey 合服 with Drizzle',
    usage: `pnpm --filter @snowkey/example-drizzle start [-- flags]\n\nGame servers written through @snowkey/drizzle, merged and verified.\n${EXAMPLE_FLAGS_HELP}`,
    defaults: { prefix: 'snowkey_drizzle', players: 1000, adapters: ['drizzle'] },
    players: (_opts, serverIds) => serverIds.map(() => drizzlePlayer),
  },
  process.argv.slice(2),
);
