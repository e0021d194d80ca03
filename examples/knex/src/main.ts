import { EXAMPLE_FLAGS_HELP, runExampleCli } from '@snowkey/example-merge';
import { knexPlayer } from './knex-player.js';

process.exitCode = await runExampleCli(
  {
    title: 'snowkey 合服 with Knex',
    usage: `pnpm --filter @snowkey/example-knex start [-- flags]\n\nGame servers written through @snowkey/knex, merged and verified.\n${EXAMPLE_FLAGS_HELP}`,
    defaults: { prefix: 'snowkey_knex', players: 1000, adapters: ['knex'] },
    players: (_opts, serverIds) => serverIds.map(() => knexPlayer),
  },
  process.argv.slice(2),
);
