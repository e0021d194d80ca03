import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';

/** A TCP proxy on 127.0.0.1 that a test can cut or stall, to take a server away without stopping it. */
export interface TcpProxy {
  readonly port: number;
  /** `url` with its host and port replaced by the proxy's. */
  via(url: string): string;
  /** Drops every open connection and refuses new ones until {@link TcpProxy.restore}. */
  cut(): void;
  /** Stops forwarding bytes both ways, connections left open: every request hangs until {@link TcpProxy.restore}. */
  stall(): void;
  /** Forwards again: stalled bytes flow, new connections are let through. */
  restore(): void;
  close(): Promise<void>;
}

/**
 * Forwards 127.0.0.1:<random port> to `target`, byte for byte.
 *
 * @example
 * const proxy = await startTcpProxy(new URL(db.url));
 * const pool = new pg.Pool({ connectionString: proxy.via(db.url) });
 * proxy.cut(); // every query now fails; proxy.restore() lets new connections through again
 */
export async function startTcpProxy(target: { hostname: string; port: string | number }): Promise<TcpProxy> {
  const pairs = new Set<[Socket, Socket]>();
  let state: 'open' | 'cut' | 'stalled' = 'open';
  const server: Server = createServer((client) => {
    if (state === 'cut') {
      client.destroy();
      return;
    }
    const upstream = tcpConnect({ host: target.hostname, port: Number(target.port) });
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
    if (state === 'stalled') {
      client.pause();
      upstream.pause();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no TCP port');
  const port = address.port;
  const cut = () => {
    state = 'cut';
    for (const [client, upstream] of pairs) {
      client.destroy();
      upstream.destroy();
    }
    pairs.clear();
  };
  return {
    port,
    via(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    cut,
    stall() {
      state = 'stalled';
      for (const [client, upstream] of pairs) {
        client.pause();
        upstream.pause();
      }
    },
    restore() {
      state = 'open';
      for (const [client, upstream] of pairs) {
        client.resume();
        upstream.resume();
      }
    },
    async close() {
      cut();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
