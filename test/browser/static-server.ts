import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename, join } from 'node:path';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.html': 'text/html',
  '.map': 'application/json',
};

/** A running static server and its base URL. */
export interface StaticServer {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves files over HTTP on 127.0.0.1 (a free port): `/` is an empty page with `importMap`, `/<mount>/<file>` is
 * `<dir>/<file>` for each mount, top-level files only (no `..`, no subfolders). What the browser
 * tests load the built packages from, as a browser would load them from any web server.
 *
 * @example
 * const server = await serveStatic({ core: 'packages/core/dist' });
 * await page.goto(server.url);
 */
export async function serveStatic(
  mounts: Readonly<Record<string, string>>,
  importMap: Readonly<Record<string, string>> = {},
): Promise<StaticServer> {
  // An import map, so a built file's bare imports (`@snowkey/core`) resolve as a bundler would.
  const page = `<!doctype html><title>snowkey</title><link rel="icon" href="data:,"><script type="importmap">${JSON.stringify({ imports: importMap })}</script>`;
  const server: Server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path === '/') {
      // An empty icon, so the browser's favicon request is no 404 among the page's errors.
      res.writeHead(200, { 'content-type': 'text/html' }).end(page);
      return;
    }
    const [, mount, file, ...rest] = path.split('/');
    const dir = mount === undefined ? undefined : mounts[mount];
    if (!dir || !file || rest.length > 0 || basename(file) !== file) {
      res.writeHead(404).end();
      return;
    }
    try {
      const body = await readFile(join(dir, file));
      const type = TYPES[file.slice(file.lastIndexOf('.'))] ?? 'application/octet-stream';
      res.writeHead(200, { 'content-type': type }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}
