import { EXAMPLE_FLAGS_HELP, runExampleCli } from '@snowkey/example-merge';
import { kyselyPlayer } from './kysely-player.js';

process.exitCode = await runExampleCli(
  {
    title: 'snowkey 合服 with Kysely',
    usage: `pnpm --filter @snowkey/example-kysely start [-- flags]\n\nGame servers written through @snowkey/kysely, merged and verified.\n${EXAMPLE_FLAGS_HELP}`,
    defaults: { prefix: 'snowkey_kysely', players: 1000, adapters: ['kysely'] },
    players: (_opts, serverIds) => serverIds.map(() => kyselyPlayer),
  },
  process.argv.slice(2),
);
