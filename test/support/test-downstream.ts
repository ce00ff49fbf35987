import { once } from 'node:events';
import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';

/** One request the test downstream received. */
export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  readonly closed: boolean;
}

/** The test's downstream service: answers by path, records every request it gets. */
export class TestDownstream {
  readonly seen: Seen[] = [];
  down = true;
  healthy = true;
  private server!: Server;

  async start(): Promise<string> {
    this.server = createServer((req, res) => this.answer(req, res));
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/`;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }

  private answer(req: IncomingMessage, res: ServerResponse): void {
    const { socket } = req;
    // Read from the socket (a keep-alive socket serves many requests: one listener each would pile up).
    const seen: Seen = {
      method: req.method!,
      url: req.url!,
      headers: req.headers,
      get closed() {
        return socket.destroyed;
      },
    };
    this.seen.push(seen);
    const json = (status: number, body: unknown, headers: Record<string, string> = {}): void =>
      void res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    const path = req.url!.replace(/^\/api\//, '').split('?')[0];
    if (path === 'health') return this.healthy ? json(200, { ok: true }) : json(503, { ok: false });
    if (path === 'echo') return json(200, { apiKey: req.headers['x-api-key'] ?? null });
    if (path === 'hang') return; // never answers
    if (path === 'flaky') return json(503, { message: 'Service is restarting' });
    if (path === 'down') return this.down ? json(503, { message: 'Down for maintenance' }) : json(200, { up: true });
    if (path === 'leak')
      return json(500, {
        message:
          'NullPointer in /srv/tickets/app/handler.js:12:7 using Bearer sekrit.token.value\n    at run (/srv/x.js:1:1)',
      });
    const status = /^status\/(\d{3})$/.exec(path);
    if (status) {
      const code = Number(status[1]);
      return json(code, { message: `Upstream says ${code}` }, code === 429 ? { 'retry-after': '30' } : {});
    }
    json(404, { message: 'No such route' });
  }
}
