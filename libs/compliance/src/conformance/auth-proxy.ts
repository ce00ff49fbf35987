import { randomBytes, timingSafeEqual } from 'node:crypto';
import { IncomingMessage, Server, ServerResponse, createServer, request } from 'node:http';
import { request as requestTls } from 'node:https';
import { AddressInfo } from 'node:net';
import { RunGuard } from '../run-guard';

/**
 * A loopback proxy that adds `Authorization: Bearer <token>` to the conformance suite's requests, unchanged otherwise
 * (the `Host` header too, which the suite's DNS-rebinding scenario sets on purpose), and streams the answers back:
 * the suite sends no credentials, so this lets it test a server that requires them.
 *
 * Any local process can reach a loopback port, so the proxy serves only under a per-run secret path prefix (256
 * random bits), which only the suite is given, as its URL: anything else gets 404 and nothing is sent upstream, so
 * the token lends itself to no one else. Answers are bounded as the command's own are (the guard's byte cap, the
 * run's deadline), and a redirect is never passed on: the suite would follow it to another server.
 */
export class AuthProxy {
  private constructor(
    private readonly server: Server,
    /** The proxy's URL for the endpoint's path, its secret prefix included: give it to the suite only. */
    readonly url: string,
  ) {}

  static async start(target: URL, token: string | undefined, guard: RunGuard = new RunGuard(0)): Promise<AuthProxy> {
    const secret = Buffer.from(`/${randomBytes(32).toString('base64url')}`);
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const path = unprefixed(req.url ?? '', secret);
      if (path === undefined || guard.stopped) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
        req.resume();
        return;
      }
      forward(req, res, target, path, token, guard);
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const closeAll = () => server.closeAllConnections();
    guard.signal.addEventListener('abort', closeAll, { once: true });
    server.once('close', () => guard.signal.removeEventListener('abort', closeAll));
    const { port } = server.address() as AddressInfo;
    return new AuthProxy(server, `http://localhost:${port}${secret.toString()}${target.pathname}${target.search}`);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((ok) => this.server.close(() => ok()));
  }
}

/** The path without the secret prefix, or undefined when the request does not start with it. */
function unprefixed(url: string, secret: Buffer): string | undefined {
  const head = Buffer.from(url.slice(0, secret.length));
  if (head.length !== secret.length || !timingSafeEqual(head, secret)) return undefined;
  const rest = url.slice(secret.length);
  if (rest.startsWith('/')) return rest;
  return rest.startsWith('?') ? `/${rest}` : undefined;
}

/** Sends one request of the suite upstream with the token, and its answer back within the guard's bounds. */
function forward(
  req: IncomingMessage,
  res: ServerResponse,
  target: URL,
  path: string,
  token: string | undefined,
  guard: RunGuard,
): void {
  const send = target.protocol === 'https:' ? requestTls : request;
  const headers = { ...req.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const what = `the conformance suite's ${req.method} ${path.split('?')[0]}`;
  const upstream = send(
    { protocol: target.protocol, hostname: target.hostname, port: target.port, method: req.method, path, headers },
    (answer) => {
      const status = answer.statusCode ?? 502;
      if (status >= 300 && status < 400 && answer.headers.location) {
        guard.redirectRefused(what, answer.headers.location);
        answer.destroy();
        res.writeHead(502, { 'content-type': 'text/plain' }).end('redirect not followed\n');
        return;
      }
      res.writeHead(status, answer.headers);
      let size = 0;
      answer.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= guard.maxAnswerBytes) return;
        guard.tooLarge(what);
        answer.destroy();
        res.destroy();
      });
      answer.pipe(res);
    },
  );
  upstream.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
  res.on('close', () => upstream.destroy());
  req.pipe(upstream);
}
