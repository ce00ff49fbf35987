import { IncomingMessage, Server, ServerResponse, createServer, request } from 'node:http';
import { request as requestTls } from 'node:https';
import { AddressInfo } from 'node:net';

/**
 * A loopback proxy that adds `Authorization: Bearer <token>` to every request it passes on, unchanged otherwise
 * (the `Host` header too, which the suite's DNS-rebinding scenario sets on purpose), and streams the answers back:
 * the conformance suite sends no credentials, so this lets it test a server that requires them.
 */
export class AuthProxy {
  private constructor(
    private readonly server: Server,
    /** The proxy's URL for the endpoint's path. */
    readonly url: string,
  ) {}

  static async start(target: URL, token: string | undefined): Promise<AuthProxy> {
    const send = target.protocol === 'https:' ? requestTls : request;
    const server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const headers = { ...req.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) };
      const upstream = send(
        {
          protocol: target.protocol,
          hostname: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
      res.on('close', () => upstream.destroy());
      req.pipe(upstream);
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const { port } = server.address() as AddressInfo;
    return new AuthProxy(server, `http://localhost:${port}${target.pathname}${target.search}`);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((ok) => this.server.close(() => ok()));
  }
}
