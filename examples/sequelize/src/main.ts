import { EXAMPLE_FLAGS_HELP, runExampleCli } from '@snowkey/example-merge';
import { sequelizePlayer } from './sequelize-player.js';

process.exitCode = await runExampleCli(
  {
    title: 'snowkey 合服 with Sequelize',
    usage: `pnpm --filter @snowkey/example-sequelize start [-- flags]\n\nGame servers written through @snowkey/sequelize, merged and verified.\n${EXAMPLE_FLAGS_HELP}`,
    defaults: { prefix: 'snowkey_sequelize', players: 1000, adapters: ['sequelize'] },
    players: (_opts, serverIds) => serverIds.map(() => sequelizePlayer),
  },
  process.argv.slice(2),
);
