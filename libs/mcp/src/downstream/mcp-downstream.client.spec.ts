import { once } from 'node:events';
import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { bindCallerToken } from '../auth/caller-token';
import { principalFromClaims } from '../auth/mcp-principal';
import { CallScope, enableCallScope, runInCallScope } from '../pipeline/call-scope';
import { StaticCredentials } from './credentials/static.credentials';
import { DownstreamCredentials } from './credentials/downstream-credentials.interface';
import { McpDownstreamOptions } from './downstream-options.interface';
import { resolveDownstreamOptions } from './downstream-options.resolver';
import { DownstreamRateLimitedError, DownstreamServerError, DownstreamUnavailableError } from './downstream.errors';
import { McpDownstreamClient } from './mcp-downstream.client';
import { Registry } from 'prom-client';
import { DownstreamMeter } from './downstream.metrics';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

// What a downstream client does when built at boot: every call then carries its scope.
enableCallScope();

describe('McpDownstreamClient against a real HTTP server', () => {
  let server: Server;
  let handler: Handler;
  let seen: IncomingMessage[];
  let baseUrl: string;
  const clients: McpDownstreamClient[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req);
      handler(req, res);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
  });
  beforeEach(() => {
    seen = [];
    handler = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  afterEach(async () => Promise.all(clients.splice(0).map((c) => c.onModuleDestroy())));
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const client = (options: Partial<McpDownstreamOptions> = {}, credentials?: DownstreamCredentials) => {
    const c = new McpDownstreamClient(
      resolveDownstreamOptions({ name: 'jira', baseUrl, retry: { initialDelayMs: 1 }, ...options }),
      credentials ?? new StaticCredentials('X-Api-Key', 'key-1'),
    );
    clients.push(c);
    return c;
  };
  const status = (code: number, headers: Record<string, string> = {}, body = '') => {
    handler = (_req, res) => res.writeHead(code, headers).end(body);
  };
  const scope = (token?: string, controller = new AbortController()): CallScope => {
    const principal = principalFromClaims({ sub: 'alice' });
    if (token) bindCallerToken(principal, token);
    return { signal: controller.signal, deadline: Date.now() + 5_000, principal, requestId: 'req-7', target: 't' };
  };

  it('sends the static header and the request id under the base path, and parses JSON', async () => {
    const value = await runInCallScope(
      () => scope(),
      () => client().get('issue/HD-7', { query: { expand: ['a', 'b'] } }),
    );
    expect(value).toEqual({ ok: true });
    expect(seen[0].url).toBe('/api/issue/HD-7?expand=a&expand=b');
    expect(seen[0].headers).toMatchObject({ 'x-api-key': 'key-1', 'x-request-id': 'req-7' });
  });

  it("refuses a request carrying the caller's own token, in any header or the URL, before sending it", async () => {
    const c = client();
    const attempts = [
      () => c.get('x', { headers: { Authorization: 'Bearer caller.jwt.token' } }),
      () => c.get('x', { headers: { 'X-Forward': 'caller.jwt.token' } }),
      () => c.get('x', { query: { access_token: 'caller.jwt.token' } }),
    ];
    for (const attempt of attempts)
      await expect(runInCallScope(() => scope('caller.jwt.token'), attempt)).rejects.toMatchObject({
        constructor: DownstreamServerError,
        data: { reason: 'token_passthrough' },
      });
    const leaky: DownstreamCredentials = {
      headers: () => Promise.resolve({ authorization: 'Bearer caller.jwt.token' }),
    };
    await expect(
      runInCallScope(
        () => scope('caller.jwt.token'),
        () => client({}, leaky).get('x'),
      ),
    ).rejects.toMatchObject({
      data: { reason: 'token_passthrough' },
    });
    expect(seen).toHaveLength(0);
  });

  it('retries a GET on 503 and succeeds; never retries a POST without a key', async () => {
    let n = 0;
    handler = (_req, res) => (++n < 3 ? res.writeHead(503).end() : res.writeHead(200).end('fine'));
    await expect(client().get('x')).resolves.toBe('fine');
    expect(seen).toHaveLength(3);
    seen = [];
    status(503);
    await expect(client().post('x', { a: 1 })).rejects.toBeInstanceOf(DownstreamUnavailableError);
    expect(seen).toHaveLength(1);
  });

  it('measures every attempt by status class, its retries, and names itself in the call scope', async () => {
    const registry = new Registry();
    const c = new McpDownstreamClient(
      resolveDownstreamOptions({ name: 'jira', baseUrl, retry: { initialDelayMs: 1 } }),
      undefined,
      new DownstreamMeter('jira', registry),
    );
    clients.push(c);
    let n = 0;
    handler = (_req, res) => (++n < 3 ? res.writeHead(503).end() : res.writeHead(200).end('fine'));
    const downstreams: string[] = [];
    await runInCallScope(
      () => ({ ...scope(), downstreams }),
      () => c.get('x'),
    );
    expect(downstreams).toEqual(['jira']);
    const text = await registry.metrics();
    expect(text).toContain('mcp_downstream_requests_total{downstream="jira",status_class="5xx"} 2');
    expect(text).toContain('mcp_downstream_requests_total{downstream="jira",status_class="2xx"} 1');
    expect(text).toContain('mcp_downstream_retries_total{downstream="jira"} 2');
    expect(text).toContain('mcp_downstream_request_duration_seconds_count{downstream="jira"} 3');
    expect(text).toContain('mcp_downstream_breaker_state{downstream="jira"} 0');
  });

  it('retries a POST with an idempotency key, sent as Idempotency-Key', async () => {
    status(502);
    await expect(client().post('x', {}, { idempotencyKey: 'k-9' })).rejects.toMatchObject({ status: 502 });
    expect(seen).toHaveLength(3);
    expect(seen[2].headers['idempotency-key']).toBe('k-9');
  });

  it('a 429 with a long Retry-After is thrown at once as -32003 with retryAfter', async () => {
    status(429, { 'retry-after': '30' }, '{"message":"slow down"}');
    const error = await client()
      .get('x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DownstreamRateLimitedError);
    expect(error).toMatchObject({ retryAfter: 30, message: 'slow down (HTTP 429)' });
    expect(seen).toHaveLength(1);
  });

  it('the breaker opens after consecutive failures, answers at once, and recovers half-open', async () => {
    const c = client({ retry: false, breaker: { consecutiveFailures: 2, halfOpenAfterMs: 150 } });
    status(503);
    await expect(c.get('x')).rejects.toMatchObject({ status: 503 });
    await expect(c.get('x')).rejects.toMatchObject({ status: 503 });
    expect(c.breakerState).toBe('open');
    await expect(c.get('x')).rejects.toMatchObject({ constructor: DownstreamUnavailableError, status: undefined });
    expect(seen).toHaveLength(2);
    await new Promise((r) => setTimeout(r, 200));
    status(200, {}, 'back');
    await expect(c.get('x')).resolves.toBe('back');
    expect(c.breakerState).toBe('closed');
  });

  it('a slow downstream: the request ends at its deadline and the socket is closed', async () => {
    handler = () => undefined; // never answers
    const started = Date.now();
    await expect(client({ timeoutMs: 200, retry: false }).get('x')).rejects.toMatchObject({
      message: 'The downstream service did not answer: no answer before the deadline',
    });
    expect(Date.now() - started).toBeLessThan(1_000);
    await new Promise((r) => setTimeout(r, 50));
    expect(seen[0].socket.destroyed).toBe(true);
  });

  it("the call's cancellation aborts the request in flight", async () => {
    handler = () => undefined;
    const controller = new AbortController();
    const pending = runInCallScope(
      () => scope(undefined, controller),
      () => client().get('x'),
    );
    await new Promise((r) => setTimeout(r, 100));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ message: expect.stringContaining('cancelled') });
    await new Promise((r) => setTimeout(r, 50));
    expect(seen[0].socket.destroyed).toBe(true);
    expect(seen).toHaveLength(1);
  });

  it('one retry after a 401 with fresh credentials', async () => {
    let fresh = false;
    const credentials: DownstreamCredentials = {
      headers: () => Promise.resolve({ authorization: fresh ? 'Bearer new' : 'Bearer old' }),
      invalidate: () => Promise.resolve(void (fresh = true)),
    };
    handler = (req, res) => res.writeHead(req.headers.authorization === 'Bearer new' ? 200 : 401).end('ok');
    await expect(client({}, credentials).get('x')).resolves.toBe('ok');
    expect(seen.map((r) => r.headers.authorization)).toEqual(['Bearer old', 'Bearer new']);
  });

  it('a bulkhead: past maxConcurrent in flight and as many waiting, a request fails at once with -32006', async () => {
    handler = () => undefined; // holds every request
    const c = client({ maxConcurrent: 1, timeoutMs: 300, retry: false });
    const held = [c.get('a'), c.get('b')].map((p) => p.catch((e: unknown) => e));
    const started = Date.now();
    await expect(c.get('c')).rejects.toMatchObject({
      constructor: DownstreamUnavailableError,
      message: expect.stringContaining('too many requests to it are in flight'),
    });
    expect(Date.now() - started).toBeLessThan(100);
    await Promise.all(held);
  });

  it('refuses an answer over maxResponseBytes, and a path outside the base', async () => {
    status(200, {}, 'x'.repeat(2_000));
    await expect(client({ maxResponseBytes: 1_000 }).get('x')).rejects.toMatchObject({
      data: { reason: 'too_large' },
    });
    await expect(client().get('../admin')).rejects.toThrow('stay under the baseUrl');
    await expect(client().get('https://evil.example/')).rejects.toThrow('not a URL');
  });
});
