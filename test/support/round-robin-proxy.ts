import { createServer, request, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/** A load balancer without session affinity for multi-replica tests: each request goes to the next upstream. */
export interface RoundRobinProxy {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** How many requests each upstream got. */
  counts: number[];
  close(): Promise<void>;
}

/**
 * Starts a round-robin HTTP proxy on loopback in front of `upstreams` (origins). Requests and responses are
 * streamed through (SSE included); an upstream that is down answers 502 for the request that reached it.
 */
export async function startRoundRobinProxy(upstreams: string[]): Promise<RoundRobinProxy> {
  let next = 0;
  const counts = upstreams.map(() => 0);
  const server: Server = createServer((req, res) => {
    const i = next++ % upstreams.length;
    counts[i]++;
    const target = new URL(req.url ?? '/', upstreams[i]);
    const upstream = request(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
