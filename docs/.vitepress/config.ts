import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type DefaultTheme, defineConfig } from 'vitepress';

// The snowkey docs site. VitePress, because its pages are the Markdown files the doc checker
// already typechecks and runs (no MDX to keep apart), and a Vue component in its theme can
// import @snowkey/core for the playground.

const docs = fileURLToPath(new URL('..', import.meta.url));
const repo = resolve(docs, '..');
const GITHUB = 'https://github.com/snowkey/snowkey/blob/main/';

/** The API reference's sidebar, written by typedoc-vitepress-theme when `pnpm docs:api` ran. */
function apiSidebar(): DefaultTheme.SidebarItem[] {
  const file = join(docs, 'api', 'typedoc-sidebar.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : [];
}

const orms: DefaultTheme.SidebarItem[] = [
  { text: 'TypeORM', link: '/start/typeorm' },
  { text: 'Prisma', link: '/start/prisma' },
  { text: 'Knex', link: '/start/knex' },
  { text: 'Drizzle', link: '/start/drizzle' },
  { text: 'Kysely', link: '/start/kysely' },
  { text: 'Sequelize', link: '/start/sequelize' },
  { text: 'NestJS', link: '/start/nest' },
];

const guides: DefaultTheme.SidebarItem[] = [
  { text: 'Choosing Snowflake or segments', link: '/guide/choosing' },
  { text: 'Layouts and presets', link: '/guide/layouts-and-presets' },
  { text: 'The generator and the clock', link: '/guide/clock' },
  { text: 'Node ids in production', link: '/guide/node-ids-in-production' },
  { text: 'Ids on the wire', link: '/guide/ids-on-the-wire' },
  { text: 'Public ids', link: '/guide/public-ids' },
  { text: 'Segment allocation', link: '/guide/segments' },
  { text: 'SQLite', link: '/guide/sqlite' },
  { text: 'Ids from SQL', link: '/guide/sql-generator' },
  { text: 'Adopting an existing database', link: '/guide/adopt' },
  { text: '合服 for operators', link: '/guide/merge-operators' },
  { text: 'Queries by time', link: '/queries-by-time' },
  { text: 'Metrics and health', link: '/guide/observability' },
  { text: 'Errors', link: '/guide/errors' },
  { text: 'Performance', link: '/guide/performance' },
];

const packages: DefaultTheme.SidebarItem[] = [
  { text: 'Prisma', link: '/packages/prisma/' },
  { text: 'Knex', link: '/packages/knex/' },
  { text: 'Drizzle', link: '/packages/drizzle/' },
  { text: 'Kysely', link: '/packages/kysely/' },
  { text: 'HTTP', link: '/packages/http/' },
  { text: 'NestJS', link: '/packages/nest/' },
  { text: 'The snowkey command', link: '/packages/cli/' },
];

export default defineConfig({
  title: 'snowkey',
  description: 'Snowflake-style 64-bit bigint primary keys for TypeScript ORMs',
  cleanUrls: true,
  head: [['link', { rel: 'icon', type: 'image/svg+xml', href: '/favicon.svg' }]],
  srcExclude: ['**/node_modules/**', '**/.doctest/**'],
  themeConfig: {
    nav: [
      { text: 'Getting started', link: '/start/typeorm' },
      { text: 'Guides', link: '/guide/layouts-and-presets' },
      { text: 'API', link: '/api/' },
      { text: 'Playground', link: '/playground' },
    ],
    sidebar: [
      { text: 'Getting started', items: orms },
      { text: 'Guides', items: guides },
      { text: 'Packages', items: packages },
      { text: 'Id playground', link: '/playground' },
      { text: 'API reference', link: '/api/', collapsed: true, items: apiSidebar() },
    ],
    search: { provider: 'local' },
  },
  markdown: {
    config(md) {
      // A link to a file of the repository outside docs/ (a package README, a source file, the
      // bench results) points at GitHub, where it is read today.
      const render = md.renderer.rules.link_open;
      md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
        const token = tokens[idx]!;
        const href = token.attrGet('href');
        if (href && !/^[a-z]+:|^#|^\//i.test(href)) {
          const page = join(docs, (env as { relativePath: string }).relativePath);
          const [path = '', hash] = href.split('#');
          const target = resolve(dirname(page), path);
          if (!target.startsWith(docs)) {
            token.attrSet('href', GITHUB + relative(repo, target) + (hash ? `#${hash}` : ''));
          }
        }
        return render ? render(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
      };
    },
  },
  vite: {
    // The playground shows the library's error names, which minification would otherwise mangle.
    esbuild: { keepNames: true },
    // @snowkey/core from its TypeScript source, as everywhere in this repository: a fresh clone
    // builds the site without building the packages.
    resolve: { conditions: ['dev-source'] },
    ssr: { noExternal: [/^@snowkey\//] },
  },
});
