import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunningServer } from './round-trip.js';

/**
 * Listens on 127.0.0.1 on a free port and returns the base URL and a closer.
 *
 * @example
 * const running = await listen(http.createServer(app));
 */
export async function listen(server: Server): Promise<RunningServer> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
