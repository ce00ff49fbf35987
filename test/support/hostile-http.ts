import { IncomingMessage, Server, ServerResponse, createServer, request } from 'node:http';
import { AddressInfo } from 'node:net';

/** A plain node:http server on an ephemeral loopback port, and what it saw. */
export interface HostileServer {
  url: string;
  origin: string;
  /** Requests received, as `METHOD /path`. */
  requests: string[];
  /** Bytes of answer bodies the server got written to its sockets (what a client could be made to read). */
  sent: () => number;
  /** Answers still open (a client that stopped reading has closed them). */
  open: () => number;
  close: () => Promise<void>;
}

/** The most a hostile answer sends before it ends by itself: the loops of a test stay bounded. */
const MAX_HOSTILE_BYTES = 2 * 1_073_741_824;
const CHUNK = Buffer.alloc(64 * 1_024, 'x');

async function serve(
  handle: (req: IncomingMessage, res: ServerResponse, track: { add(n: number): void }) => void,
): Promise<HostileServer> {
  const requests: string[] = [];
  let sent = 0;
  let open = 0;
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    open++;
    res.once('close', () => open--);
    handle(req, res, { add: (n) => (sent += n) });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    origin: `http://127.0.0.1:${port}`,
    requests,
    sent: () => sent,
    open: () => open,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

const health = (res: ServerResponse) =>
  res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok","version":"1.0.0"}');

/**
 * Writes `chunk` until the client stops reading (its socket closes) or {@link MAX_HOSTILE_BYTES} are out, waiting for
 * the socket to drain between writes: what is counted is what the client's side could be made to hold.
 */
function endless(res: ServerResponse, chunk: Buffer, track: { add(n: number): void }): void {
  let total = 0;
  const pump = () => {
    while (!res.destroyed && total < MAX_HOSTILE_BYTES) {
      total += chunk.length;
      track.add(chunk.length);
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

/**
 * Answers `/health` normally and every POST with an endless answer: a JSON body (`json`), an SSE stream of events
 * that never hold the response (`sse`), or a JSON body declared as 3 GB (`declared`).
 */
export function startEndlessServer(kind: 'json' | 'sse' | 'declared'): Promise<HostileServer> {
  return serve((req, res, track) => {
    if (req.method === 'GET') return health(res);
    req.resume();
    if (kind === 'sse') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const event = `data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { data: CHUNK.toString() } })}\n\n`;
      return endless(res, Buffer.from(event), track);
    }
    res.writeHead(200, {
      'content-type': 'application/json',
      ...(kind === 'declared' ? { 'content-length': String(3_000_000_000) } : {}),
    });
    res.write('{"jsonrpc":"2.0","id":"compliance-init","result":{"padding":"');
    endless(res, CHUNK, track);
  });
}

/** Answers `/health` at once and holds every other request without an answer until the client goes away. */
export function startSilentServer(): Promise<HostileServer> {
  return serve((req, res) => {
    if (req.method === 'GET' && req.url === '/health') return health(res);
    req.resume();
  });
}

/** Counts what it receives and answers 404: the server a redirect points to, which must see nothing. */
export function startCountingServer(): Promise<HostileServer> {
  return serve((req, res) => {
    req.resume();
    res.writeHead(404).end();
  });
}

/** Answers `/health` and redirects every other request (`307`) to `to`. */
export function startRedirectingServer(to: string): Promise<HostileServer> {
  return serve((req, res) => {
    req.resume();
    if (req.method === 'GET' && req.url === '/health') return health(res);
    res.writeHead(307, { location: to }).end();
  });
}

/**
 * Passes every request on to `upstream` (an MCP server), except a POST whose JSON-RPC method is `redirected`: that one
 * is answered `307` to `to`, another origin.
 */
export function startRedirectingFront(upstream: string, redirected: string, to: string): Promise<HostileServer> {
  const target = new URL(upstream);
  return serve((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let method: unknown;
      try {
        method = (JSON.parse(body.toString()) as { method?: unknown }).method;
      } catch {
        method = undefined;
      }
      if (req.method === 'POST' && method === redirected) return void res.writeHead(307, { location: to }).end();
      const headers = { ...req.headers, host: target.host };
      const out = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers });
      out.on('response', (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      out.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
      out.end(body);
    });
  });
}
