import { createServer, Server } from 'node:http';
import { RunningServer, startDeskHttp } from './support/server-process';
import { authorize, initialize, openSession, post } from './support/raw-mcp-http';

/** GET on the server's origin with no Authorization header at all. */
async function probe(server: RunningServer, path: '/health' | '/ready') {
  const res = await fetch(new URL(path, server.url));
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text) as Record<string, any> };
}

const PLATFORM_OK = { jwks: 'ok', session_store: 'ok', event_store: 'ok', limit_store: 'ok', shutdown: 'ok' };
/** Nothing in a readiness or health body may say where a dependency lives or why it failed (§16.3). */
const LEAKS = /127\.0\.0\.1|localhost|http:|jwks\.json|ECONNREFUSED|fetch failed|message|error|timed out/i;

/** A stand-in for the directory API: answers `GET /health` with 200 while up. */
async function startUpstream(): Promise<{ url: string; server: Server; paths: string[] }> {
  const paths: string[] = [];
  const server = createServer(
    (req, res) => (paths.push(req.url ?? ''), res.writeHead(req.url === '/health' ? 200 : 404).end()),
  );
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { server, paths, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}
const closeServer = (server: Server) => new Promise<void>((ok) => server.close(() => ok()));

describe('/health and /ready on the built desk (default configuration)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    // No probe cache, so a dependency going down shows on the next request.
    server = await startDeskHttp({ MCP_READY_CACHE_MS: '0' });
    authorize(server);
  });
  afterAll(() => server?.stop());

  it('GET /health: ok, the same version as serverInfo.version, whole seconds of uptime, no token needed', async () => {
    const { body: init } = await initialize(server.url, '2025-11-25');
    const version = (init.result.serverInfo as { version: string }).version;
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    const health = await probe(server, '/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok', version, uptime: expect.any(Number) });
    expect(Number.isInteger(health.body.uptime) && health.body.uptime >= 0).toBe(true);
    expect(health.headers.get('content-type')).toMatch(/^application\/json/);
    expect(health.headers.get('cache-control')).toBe('no-store');
    // Auth is on for MCP itself: the same request shape without a token is refused there.
    const anonymous = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    expect(anonymous.status).toBe(401);
  });

  it('GET /ready: 200 "ready" with jwks, the stores and shutdown; no directory check without DESK_DIRECTORY_URL', async () => {
    const ready = await probe(server, '/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', checks: PLATFORM_OK });
    expect(ready.headers.get('cache-control')).toBe('no-store');
  });

  it('GET /ready: 503 "not_ready" with statuses only once the JWKS issuer is down; /health stays 200', async () => {
    await server.issuer!.close();
    const ready = await probe(server, '/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ status: 'not_ready', checks: { ...PLATFORM_OK, jwks: 'down' } });
    expect(ready.text).not.toMatch(LEAKS);
    const health = await probe(server, '/health');
    expect(health.status).toBe(200);
    expect(health.text).not.toMatch(LEAKS);
  });
});

describe('/ready with the example upstream check (DESK_DIRECTORY_URL)', () => {
  let server: RunningServer;
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  beforeAll(async () => {
    upstream = await startUpstream();
    server = await startDeskHttp({
      MCP_READY_CACHE_MS: '0',
      MCP_READY_PROBE_TIMEOUT_MS: '1000',
      DESK_DIRECTORY_URL: upstream.url,
    });
  });
  afterAll(async () => {
    await server?.stop();
    if (upstream.server.listening) await closeServer(upstream.server);
  });

  it('is ready while the upstream answers GET /health', async () => {
    const ready = await probe(server, '/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', checks: { ...PLATFORM_OK, directory: 'ok' } });
    expect(upstream.paths).toContain('/health');
  });

  it('is 503 "not_ready" with "directory": "down" once the upstream stops, and says nothing more', async () => {
    await closeServer(upstream.server);
    const ready = await probe(server, '/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ status: 'not_ready', checks: { ...PLATFORM_OK, directory: 'down' } });
    expect(ready.text).not.toMatch(LEAKS);
    expect((await probe(server, '/health')).status).toBe(200);
  });
});

describe('/ready during graceful shutdown', () => {
  it('turns 503 "draining" on SIGTERM while a call is still in flight; /health stays 200; the call still finishes', async () => {
    const server = await startDeskHttp({ MCP_SHUTDOWN_GRACE_MS: '5000' });
    try {
      authorize(server);
      const sessionId = await openSession(server.url, '2025-11-25');
      const exit = new Promise<number | null>((ok) => server.process.once('exit', (code) => ok(code)));
      expect((await probe(server, '/ready')).status).toBe(200);
      // export_tickets takes about a second and reports progress every 200 ms: with a progress token its answer turns
      // into a stream at the first report, so once the answer's headers are here the call is surely in flight (a fixed
      // wait raced the request itself on a loaded machine: SIGTERM with nothing in flight closes the listener).
      const started = await post(
        server.url,
        {
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: { name: 'export_tickets', arguments: {}, _meta: { progressToken: 'export' } },
        },
        { sessionId, protocolVersion: '2025-11-25' },
      );
      expect(started.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const running = started.text();
      server.process.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 100));
      const ready = await probe(server, '/ready');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ status: 'draining', checks: { ...PLATFORM_OK, shutdown: 'draining' } });
      expect((await probe(server, '/health')).status).toBe(200);
      expect(await running).toContain('id,status,priority,category,title');
      expect(await exit).toBe(0);
    } finally {
      await server.stop();
    }
  });
});
