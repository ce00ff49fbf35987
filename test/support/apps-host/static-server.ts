import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/** One page or script a static server answers with. */
export interface StaticFile {
  type: string;
  body: string;
}

/** A running static server: its origin as a browser names it, and how to stop it. */
export interface StaticServer {
  origin: string;
  close(): Promise<void>;
}

/**
 * A tiny static HTTP server on an ephemeral loopback port: GET of a known path answers its file (no caching, no
 * sniffing), anything else 404. `hostname` is how the browser addresses it (127.0.0.1 or localhost), so two servers
 * on one machine give two origins.
 */
export async function startStaticServer(
  files: Record<string, StaticFile>,
  hostname: '127.0.0.1' | 'localhost',
): Promise<StaticServer> {
  const server: Server = createServer((req, res) => {
    const file = req.method === 'GET' ? files[new URL(req.url ?? '/', 'http://x').pathname] : undefined;
    if (!file) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    res
      .writeHead(200, { 'Content-Type': file.type, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' })
      .end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${hostname}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
