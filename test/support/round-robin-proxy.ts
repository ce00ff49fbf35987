import { IncomingMessage, ServerResponse, createServer, request, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/** A load balancer without session affinity for multi-replica tests: each request goes to the next upstream. */
export interface RoundRobinProxy {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** How many requests each upstream answered. */
  counts: number[];
  /** The upstream that answered each request, in the order the requests came. */
  routes: number[];
  close(): Promise<void>;
}

/**
 * Starts a round-robin HTTP proxy on loopback in front of `upstreams` (origins). Request bodies are read first and
 * responses streamed through (SSE included). Like nginx's `proxy_next_upstream error`, a request whose connection
 * is refused (the replica is gone) goes to the next upstream, and that upstream is skipped for two seconds; a
 * request that reached a replica is never sent again (a tool call must not run twice), so one that dies with its
 * replica gets 502. New connections for every request: no pooled socket outlives a killed replica.
 */
export async function startRoundRobinProxy(upstreams: string[]): Promise<RoundRobinProxy> {
  let next = 0;
  const counts = upstreams.map(() => 0);
  const routes: number[] = [];
  const downUntil = upstreams.map(() => 0);

  const pick = (tried: Set<number>): number | undefined => {
    for (let n = 0; n < upstreams.length; n++) {
      const i = next++ % upstreams.length;
      if (!tried.has(i) && downUntil[i] <= Date.now()) return i;
    }
    // Every upstream left is marked down: try one anyway (it may be back).
    const left = upstreams.findIndex((_, i) => !tried.has(i));
    return left >= 0 ? left : undefined;
  };

  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer, tried: Set<number>): void => {
    const i = pick(tried);
    if (i === undefined) return void res.writeHead(502).end();
    tried.add(i);
    const target = new URL(req.url ?? '/', upstreams[i]);
    const upstream = request(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host }, agent: false },
      (answer) => {
        counts[i]++;
        routes.push(i);
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'ECONNREFUSED' && !res.headersSent) {
        downUntil[i] = Date.now() + 2_000;
        return forward(req, res, body, tried);
      }
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    res.on('close', () => upstream.destroy());
    upstream.end(body);
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => forward(req, res, Buffer.concat(chunks), new Set()));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    routes,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
