import { IncomingMessage, ServerResponse, createServer, request, Server } from 'node:http';
import { AddressInfo, Socket } from 'node:net';

/** One request as the proxy saw it, for tests to tell which replica did what. */
export interface ProxiedRequest {
  /** HTTP method. */
  method: string;
  /** `Mcp-Session-Id` of the request, when it had one. */
  session?: string;
  /** The JSON-RPC method of a POST, `answer` for a client's answer to a server request, `batch` for an array. */
  rpc?: string;
  /** `params.name` of a tools/call. */
  tool?: string;
  /** The JSON-RPC id of a POST. */
  id?: string | number;
  /** `Last-Event-ID` of a GET that resumes a stream. */
  lastEventId?: string;
  /** Upstreams the request was sent to, in order: more than one when a refused or reset one was skipped. */
  tried: number[];
  /** The upstream it went to last (the one that answered, when one did). */
  upstream?: number;
  /** HTTP status the upstream answered with; 502 when the proxy gave up. */
  status?: number;
  /** The answer is complete, or failed for good. */
  done: boolean;
  /** Error code when it failed after reaching an upstream (the upstream died with the request). */
  failed?: string;
}

/** A load balancer without session affinity for multi-replica tests: each request goes to the next upstream. */
export interface RoundRobinProxy {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** How many requests each upstream answered. */
  counts: number[];
  /** The upstream that answered each request, in the order the answers came. */
  routes: number[];
  /** Every request, in the order they came. */
  log: ProxiedRequest[];
  /** Requests sent to `upstream` whose answer is not complete yet. */
  inFlight(upstream: number): ProxiedRequest[];
  close(): Promise<void>;
}

/** Methods nginx retries on another upstream even after sending them: repeating one changes nothing. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'DELETE']);
/** How long an upstream that failed is skipped (nginx's `fail_timeout`, shortened for tests). */
const DOWN_MS = 2_000;

/**
 * Starts a round-robin HTTP proxy on loopback in front of `upstreams` (origins). Request bodies are read whole
 * before anything is sent, so a request can go to another upstream; responses stream through (SSE included).
 *
 * Like nginx's `proxy_next_upstream error`: when an upstream cannot take a request (connection refused, or reset
 * before the request was all written), the request goes to the next upstream and the failed one is skipped for
 * {@link DOWN_MS}. A POST that was all written is never sent again (a tool call must not run twice), so one that
 * dies with its replica gets 502, or a cut stream when the answer had started; idempotent methods are retried
 * until an answer starts. New connections for every request: no pooled socket outlives a killed replica.
 */
export async function startRoundRobinProxy(upstreams: string[]): Promise<RoundRobinProxy> {
  let next = 0;
  const counts = upstreams.map(() => 0);
  const routes: number[] = [];
  const log: ProxiedRequest[] = [];
  const downUntil = upstreams.map(() => 0);

  const pick = (tried: number[]): number | undefined => {
    for (let n = 0; n < upstreams.length; n++) {
      const i = next++ % upstreams.length;
      if (!tried.includes(i) && downUntil[i] <= Date.now()) return i;
    }
    // Every upstream left is marked down: try one anyway (it may be back).
    const left = upstreams.findIndex((_, i) => !tried.includes(i));
    return left >= 0 ? left : undefined;
  };

  const fail = (entry: ProxiedRequest, res: ServerResponse, code: string) => {
    if (entry.done) return;
    entry.done = true;
    entry.failed = code;
    if (res.headersSent) return void res.destroy();
    entry.status = 502;
    res.writeHead(502).end();
  };

  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer, entry: ProxiedRequest): void => {
    const i = pick(entry.tried);
    if (i === undefined) return fail(entry, res, 'ENOUPSTREAM');
    entry.tried.push(i);
    entry.upstream = i;
    let connected = false;
    let written = false;
    const target = new URL(req.url ?? '/', upstreams[i]);
    const upstream = request(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host }, agent: false },
      (answer) => {
        counts[i]++;
        routes.push(i);
        entry.status = answer.statusCode ?? 502;
        res.writeHead(entry.status, answer.headers);
        // A replica killed mid-answer resets the connection: cut the client's too, as a real balancer does.
        answer.on('error', (e: NodeJS.ErrnoException) => fail(entry, res, e.code ?? 'ECONNRESET'));
        answer.on('end', () => (entry.done = true));
        answer.pipe(res);
      },
    );
    upstream.on('socket', (s: Socket) => s.once('connect', () => (connected = true)));
    upstream.on('finish', () => (written = true));
    upstream.on('error', (e: NodeJS.ErrnoException) => {
      if (entry.done) return;
      if (res.headersSent) return fail(entry, res, e.code ?? 'ECONNRESET');
      // Not taken by the upstream: nothing ran there, so another one may take it.
      const notTaken = !connected || !written;
      if (notTaken || IDEMPOTENT.has(req.method ?? '')) {
        downUntil[i] = Date.now() + DOWN_MS;
        return forward(req, res, body, entry);
      }
      fail(entry, res, e.code ?? 'ECONNRESET');
    });
    res.on('close', () => upstream.destroy());
    upstream.end(body);
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const entry: ProxiedRequest = { method: req.method ?? 'GET', ...describe(req, body), tried: [], done: false };
      log.push(entry);
      // The client gave up (it aborted or went away): nothing is in flight for it any more.
      res.on('close', () => (entry.done = true));
      forward(req, res, body, entry);
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    routes,
    log,
    inFlight: (upstream) => log.filter((e) => e.upstream === upstream && !e.done),
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** What the log keeps of a request: its session, what a JSON-RPC POST is, where a GET resumes from. */
function describe(
  req: IncomingMessage,
  body: Buffer,
): Pick<ProxiedRequest, 'session' | 'rpc' | 'tool' | 'id' | 'lastEventId'> {
  const session = req.headers['mcp-session-id'] as string | undefined;
  if (req.method === 'GET') return { session, lastEventId: req.headers['last-event-id'] as string | undefined };
  if (req.method !== 'POST' || !body.length) return { session };
  try {
    const msg = JSON.parse(body.toString()) as Record<string, unknown> | unknown[];
    if (Array.isArray(msg)) return { session, rpc: 'batch' };
    const params = msg.params as { name?: unknown } | undefined;
    return {
      session,
      rpc: typeof msg.method === 'string' ? msg.method : 'answer',
      tool: msg.method === 'tools/call' && typeof params?.name === 'string' ? params.name : undefined,
      id: msg.id as string | number | undefined,
    };
  } catch {
    return { session };
  }
}
