import { readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
};

/**
 * The file a built VitePress site (`cleanUrls`) serves for a URL path: `/a/b` is `a/b.html`,
 * `/a/` is `a/index.html`, anything else the file itself; undefined when there is none.
 *
 * @example
 * await siteFile('docs/.vitepress/dist', '/guide/clock'); // '.../guide/clock.html'
 */
export async function siteFile(dist: string, path: string): Promise<string | undefined> {
  const clean = normalize(decodeURIComponent(path)).replace(/^(\.\.[/\\])+/, '');
  const candidates = clean.endsWith('/')
    ? [join(dist, clean, 'index.html')]
    : [join(dist, clean), join(dist, `${clean}.html`), join(dist, clean, 'index.html')];
  for (const file of candidates) {
    if (!file.startsWith(dist)) continue;
    const info = await stat(file).catch(() => undefined);
    if (info?.isFile()) return file;
  }
  return undefined;
}

/** A running server of a built site and its base URL. */
export interface SiteServer {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves a built site on 127.0.0.1 (a free port), as a static host serves it.
 *
 * @example
 * const site = await serveSite('docs/.vitepress/dist');
 * await page.goto(`${site.url}playground`);
 */
export async function serveSite(dist: string): Promise<SiteServer> {
  const server: Server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const file = await siteFile(dist, path);
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/html' }).end(await readFile(join(dist, '404.html')));
      return;
    }
    res
      .writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
      .end(await readFile(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}
