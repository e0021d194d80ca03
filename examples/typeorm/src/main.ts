import { EXAMPLE_FLAGS_HELP, runExampleCli } from '@snowkey/example-merge';
import { typeormPlayer } from './typeorm-player.js';

process.exitCode = await runExampleCli(
  {
    title: 'snowkey 合服 with TypeORM',
    usage: `pnpm --filter @snowkey/example-typeorm start [-- flags]\n\nGame servers written through TypeORM entities with @snowkey/typeorm, merged and verified.\n${EXAMPLE_FLAGS_HELP}`,
    defaults: { prefix: 'snowkey_typeorm', players: 1000, adapters: ['typeorm'] },
    players: (_opts, serverIds) => serverIds.map(() => typeormPlayer),
  },
  process.argv.slice(2),
);
