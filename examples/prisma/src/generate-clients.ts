import { ensurePrismaClient } from './prisma-clients.js';

// `pnpm --filter @snowkey/example-prisma generate`: the three clients, ahead of time.
for (const dialect of ['postgres', 'mysql', 'sqlite'] as const) {
  process.stdout.write(`${ensurePrismaClient(dialect)}\n`);
}
