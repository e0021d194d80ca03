import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { APP_CHECKS } from './app-checks.js';
import { ensureTarballs } from './tarballs.js';
import { type AppSpec, installWorkspace, type Workspace } from './workspace.js';

/** Which end of the adapters' peer ranges an app runs: each end is one workspace, one install. */
type End = 'highest' | 'lowest';

interface ConsumerCase extends AppSpec {
  readonly end: End;
  /** What the app is, for the test's name. */
  readonly setUp: string;
  /** [adapter, its peer, the version the adapter must load]: proves which end of the range ran. */
  readonly loads: readonly (readonly [string, string, string])[];
}

/**
 * Each set-up at the highest version of its adapter's peer range (the template's own versions),
 * then at the lowest (the same template with `versions`). The peer ranges are in each adapter's
 * package.json; both ends are listed in its README.
 */
const CASES: readonly ConsumerCase[] = [
  {
    end: 'highest',
    name: 'knex-pg',
    template: 'knex-pg',
    setUp: 'Knex + pg, CommonJS (node10)',
    loads: [['@snowkey/knex', 'knex', '3.3.0']],
  },
  {
    end: 'highest',
    name: 'kysely-pg',
    template: 'kysely-pg',
    setUp: 'Kysely + pg, ESM (nodenext)',
    loads: [['@snowkey/kysely', 'kysely', '0.29.9']],
  },
  {
    end: 'highest',
    name: 'drizzle-sqlite',
    template: 'drizzle-sqlite',
    setUp: 'Drizzle + better-sqlite3, ESM (nodenext)',
    loads: [['@snowkey/drizzle', 'drizzle-orm', '0.45.4']],
  },
  {
    end: 'highest',
    name: 'sequelize-mysql',
    template: 'sequelize-mysql',
    setUp: 'Sequelize + mysql2 on MariaDB, CommonJS (node16)',
    loads: [['@snowkey/sequelize', 'sequelize', '6.37.8']],
  },
  {
    end: 'highest',
    name: 'prisma-pg',
    template: 'prisma-pg',
    setUp: 'Prisma 7 + @prisma/adapter-pg, ESM (nodenext), client generated in the app',
    loads: [['@snowkey/prisma', '@prisma/client', '7.10.0']],
  },
  {
    end: 'highest',
    name: 'nest-typeorm-mariadb',
    template: 'nest-typeorm-mariadb',
    setUp: 'NestJS + TypeOrmModule, TypeORM on MariaDB, CommonJS (node10) with decorators',
    loads: [
      ['@snowkey/typeorm', 'typeorm', '1.1.1'],
      ['@snowkey/nest', '@nestjs/core', '12.5.1'],
    ],
  },
  {
    end: 'highest',
    name: 'vite-browser',
    template: 'vite-browser',
    setUp: '@snowkey/core bundled by Vite for the browser (no Node built-ins, run in Chromium)',
    loads: [],
  },
  {
    end: 'lowest',
    name: 'knex-pg',
    template: 'knex-pg',
    versions: { knex: '3.0.1' },
    setUp: 'Knex + pg, CommonJS (node10)',
    loads: [['@snowkey/knex', 'knex', '3.0.1']],
  },
  {
    end: 'lowest',
    name: 'kysely-pg',
    template: 'kysely-pg',
    versions: { kysely: '0.28.0' },
    setUp: 'Kysely + pg, ESM (nodenext)',
    loads: [['@snowkey/kysely', 'kysely', '0.28.0']],
  },
  {
    end: 'lowest',
    name: 'drizzle-sqlite',
    template: 'drizzle-sqlite',
    versions: { 'drizzle-orm': '0.45.0' },
    setUp: 'Drizzle + better-sqlite3, ESM (nodenext)',
    loads: [['@snowkey/drizzle', 'drizzle-orm', '0.45.0']],
  },
  {
    end: 'lowest',
    name: 'sequelize-mysql',
    template: 'sequelize-mysql',
    versions: { sequelize: '6.37.0' },
    setUp: 'Sequelize + mysql2 on MariaDB, CommonJS (node16)',
    loads: [['@snowkey/sequelize', 'sequelize', '6.37.0']],
  },
  {
    end: 'lowest',
    name: 'prisma-pg',
    template: 'prisma-pg',
    versions: { '@prisma/client': '7.0.0', '@prisma/adapter-pg': '7.0.0', prisma: '7.0.0' },
    setUp: 'Prisma 7 + @prisma/adapter-pg, ESM (nodenext), client generated in the app',
    loads: [['@snowkey/prisma', '@prisma/client', '7.0.0']],
  },
  {
    end: 'lowest',
    name: 'nest-typeorm-mariadb',
    template: 'nest-typeorm-mariadb',
    versions: {
      typeorm: '0.3.20',
      '@nestjs/common': '11.0.0',
      '@nestjs/core': '11.0.0',
      '@nestjs/typeorm': '11.0.0',
    },
    setUp: 'NestJS + TypeOrmModule, TypeORM on MariaDB, CommonJS (node10) with decorators',
    loads: [
      ['@snowkey/typeorm', 'typeorm', '0.3.20'],
      ['@snowkey/nest', '@nestjs/core', '11.0.0'],
    ],
  },
];

const workspaces = new Map<End, Workspace>();
beforeAll(async () => {
  const tarballs = ensureTarballs();
  const ends: End[] = ['highest', 'lowest'];
  const installed = await Promise.allSettled(
    ends.map((end) =>
      installWorkspace(
        CASES.filter((c) => c.end === end),
        tarballs,
      ),
    ),
  );
  installed.forEach((result, i) => {
    if (result.status === 'fulfilled') workspaces.set(ends[i]!, result.value);
  });
  const failed = installed.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
}, 600_000);
afterAll(() => {
  for (const ws of workspaces.values()) ws.remove();
});

describe('consumer apps installed from the packed tarballs', () => {
  for (const app of CASES) {
    const at = app.loads.map(([, peer, version]) => `${peer}@${version}`).join(', ');
    test(`GIVEN ${app.setUp}${at ? ` at ${at}` : ''} THEN it typechecks, runs, and the rows hold its ids`, async () => {
      const ws = workspaces.get(app.end)!;
      for (const [adapter, peer, version] of app.loads) {
        expect(`${peer}@${ws.loadedVersion(app.name, adapter, peer)}`).toBe(`${peer}@${version}`);
      }
      await APP_CHECKS[app.template]!(ws.dir(app.name));
    });
  }
});
