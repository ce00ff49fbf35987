import { INestApplication, Logger } from '@nestjs/common';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { downstreamFixture } from './fixtures/downstream-fixture.module';
import { startInProcess } from './support/in-process-app';
import { rpcError } from './support/rpc-error';
import { sleep, waitFor } from './support/wait';
import { TestIssuer } from './support/test-issuer';
import { TestDownstream } from './support/test-downstream';
import { jsonLines, waitForLine } from './support/log-lines';

type TextResult = { content: { type: string; text: string }[]; isError?: boolean };

/**
 * Tools calling a real HTTP downstream through McpDownstreamClient, driven by the official client in both eras:
 * the static credentials and never the caller's token, the corporate mapping of upstream statuses, retries only
 * when safe, the breaker, the tool's deadline and the caller's cancellation reaching the downstream socket.
 */
describe.each([
  ['2025-11-25', undefined],
  ['2026-07-28', { mode: { pin: '2026-07-28' } }],
])('downstream clients, official client in the %s era', (_era, versionNegotiation) => {
  let issuer: TestIssuer;
  let downstream: TestDownstream;
  let app: INestApplication;
  let client: Client;
  let token: string;
  const logged: string[] = [];
  const answers: { status: number; retryAfter: string | null; body: unknown }[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'downstream-e2e-'));
  const logFile = join(dir, 'app.log');
  const auditFile = join(dir, 'audit.log');
  const scraper = { username: 'scraper', password: 'scrape-secret-0123' };
  let origin: string;
  const read = (file: string) => () => (existsSync(file) ? readFileSync(file, 'utf8') : '');

  beforeAll(async () => {
    for (const level of ['log', 'warn', 'error', 'debug', 'verbose'] as const)
      jest.spyOn(Logger.prototype, level).mockImplementation((...args: unknown[]) => {
        logged.push(String(args[0]));
      });
    issuer = await TestIssuer.start();
    downstream = new TestDownstream();
    const baseUrl = await downstream.start();
    const env = issuer.env();
    // The audit sink's destination is read at boot.
    process.env.MCP_AUDIT_LOG = auditFile;
    const started = await startInProcess(
      downstreamFixture({
        baseUrl,
        auth: { jwksUri: env.MCP_JWKS_URI, issuer: env.MCP_JWT_ISSUER, audience: env.MCP_JWT_AUDIENCE },
        logFile,
        metrics: scraper,
      }),
    ).finally(() => delete process.env.MCP_AUDIT_LOG);
    app = started.app;
    origin = new URL(started.url).origin;
    token = await issuer.mint({ sub: 'alice' });
    client = new Client({ name: 'downstream-e2e', version: '1.0.0' }, versionNegotiation ? { versionNegotiation } : {});
    // Records the answers to calls, for what the official client does not surface (a 429's headers and body).
    const recording = async (input: string | URL | Request, init?: RequestInit) => {
      const res = await fetch(input, init);
      if (res.status === 429)
        answers.push({
          status: res.status,
          retryAfter: res.headers.get('retry-after'),
          body: (await res.clone().json()) as unknown,
        });
      return res;
    };
    await client.connect(
      new StreamableHTTPClientTransport(new URL(started.url), {
        fetch: recording,
        authProvider: { token: async () => token },
      }),
    );
  });
  afterAll(async () => {
    await client?.close();
    await app?.close();
    await downstream?.stop();
    await issuer?.close();
    jest.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  /** `/metrics` on the main port, as Prometheus scrapes it. */
  const scrape = async () => {
    const basic = Buffer.from(`${scraper.username}:${scraper.password}`).toString('base64');
    const res = await fetch(`${origin}/metrics`, { headers: { authorization: `Basic ${basic}` } });
    expect(res.status).toBe(200);
    const text = await res.text();
    // One series by name and labels, whatever their order in the exposition.
    return (name: string, labels: Record<string, string>) => {
      const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
      const line = text.split('\n').find((l) => {
        const m = /^(\w+)\{(.*)\} (\S+)$/.exec(l);
        return m?.[1] === name && wanted.every((pair) => m[2].split(',').includes(pair));
      });
      return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
    };
  };
  const ready = async () => {
    const res = await fetch(`${origin}/ready`);
    return { status: res.status, checks: ((await res.json()) as { checks: Record<string, string> }).checks };
  };

  const call = (args: Record<string, unknown>, signal?: AbortSignal) =>
    client.callTool(
      { name: 'downstream_call', arguments: args },
      signal ? { signal } : undefined,
    ) as Promise<TextResult>;
  const get = (path: string, service = 'tickets') => call({ service, method: 'GET', path });

  it("the downstream sees the static API key, never the caller's token", async () => {
    expect(JSON.parse((await get('echo')).content[0].text)).toEqual({ apiKey: 'tickets-api-key' });
    const last = downstream.seen.at(-1)!;
    expect(last.headers.authorization).toBeUndefined();
    expect(JSON.stringify(last.headers)).not.toContain(token);
  });

  it("a tool that tries to forward the caller's token is refused before anything is sent", async () => {
    const before = downstream.seen.length;
    const error = await rpcError(
      call({ service: 'tickets', method: 'GET', path: 'echo', authorization: `Bearer ${token}` }),
    );
    expect(error).toMatchObject({ code: -32000 });
    expect(error.message).toContain("Refused to call the downstream service with the caller's own token");
    expect(downstream.seen.length).toBe(before);
    expect(logged.some((l) => l.includes('token passthrough is forbidden'))).toBe(true);
  });

  it.each([
    [400, 'Upstream says 400 (HTTP 400)'],
    [401, 'Upstream says 401 (HTTP 401)'],
    [403, 'Upstream says 403 (HTTP 403)'],
    [404, 'Upstream says 404 (HTTP 404)'],
    [409, 'Upstream says 409 (HTTP 409)'],
    [502, 'Upstream says 502 (HTTP 502)'],
    [504, 'Upstream says 504 (HTTP 504)'],
  ])('upstream %i reaches the model as an isError result with its reason', async (status, text) => {
    expect(await call({ service: 'tickets', method: 'POST', path: `status/${status}` })).toMatchObject({
      isError: true,
      content: [{ type: 'text', text }],
    });
  });

  it('upstream 429 is a thrown -32003 carrying retryAfter (HTTP 429 with Retry-After)', async () => {
    const error = await rpcError(get('status/429'));
    expect(error.code).toBe(-32003);
    expect(error.message).toContain('Upstream says 429 (HTTP 429)');
    const answer = answers.find((a) => a.status === 429)!;
    expect(answer.retryAfter).toBe('30');
    expect(answer.body).toMatchObject({ error: { code: -32003, data: { reason: 'rate_limited', retryAfter: 30 } } });
  });

  it('another upstream 5xx is a thrown -32000, its text reduced: no stack, path or token', async () => {
    const error = await rpcError(call({ service: 'tickets', method: 'POST', path: 'leak' }));
    expect(error.code).toBe(-32000);
    expect(error.message).toContain('(HTTP 500)');
    expect(JSON.stringify(error)).not.toMatch(/\/srv\/|sekrit|\bat run\b/);
  });

  it('a 503 is retried for a GET and not for a POST without an idempotency key; with one it is', async () => {
    const hits = (method: string) => downstream.seen.filter((s) => s.url === '/api/flaky' && s.method === method);
    expect((await get('flaky')).isError).toBe(true);
    expect(hits('GET')).toHaveLength(3);
    expect((await call({ service: 'tickets', method: 'POST', path: 'flaky' })).isError).toBe(true);
    expect(hits('POST')).toHaveLength(1);
    await call({ service: 'tickets', method: 'POST', path: 'flaky', idempotencyKey: 'k-1' });
    expect(hits('POST')).toHaveLength(4);
    expect(hits('POST').at(-1)!.headers['idempotency-key']).toBe('k-1');
  });

  it('a slow downstream: the call ends with -32004 at the tool timeout, and the downstream socket closes', async () => {
    const started = Date.now();
    const error = await rpcError(client.callTool({ name: 'downstream_slow', arguments: { path: 'hang' } }));
    expect(error.code).toBe(-32004);
    expect(Date.now() - started).toBeLessThan(2_000);
    const hang = downstream.seen.at(-1)!;
    expect(hang.url).toBe('/api/hang');
    await waitFor(() => hang.closed, 3_000, 'the downstream socket to close');
  });

  it("the caller's cancellation aborts the downstream request", async () => {
    const controller = new AbortController();
    const before = downstream.seen.length;
    const pending = call({ service: 'tickets', method: 'GET', path: 'hang' }, controller.signal);
    await waitFor(() => downstream.seen.length > before, 3_000, 'the downstream request');
    const hang = downstream.seen.at(-1)!;
    expect(hang).toMatchObject({ url: '/api/hang', closed: false });
    controller.abort('user gave up');
    await expect(pending).rejects.toThrow();
    await waitFor(() => hang.closed, 3_000, 'the downstream socket to close');
  });

  it('the call log entry and the audit line name the downstreams a call used, each once in first-use order', async () => {
    expect(await client.callTool({ name: 'downstream_both', arguments: {} })).toMatchObject({
      content: [{ text: '3 answers' }],
    });
    await client.callTool({ name: 'downstream_none', arguments: {} });
    const entry = await waitForLine(read(logFile), (l) => l.msg === 'tool call' && l.tool === 'downstream_both');
    expect(entry).toMatchObject({ context: 'McpCalls', status: 'ok', downstreams: ['tickets', 'fragile'] });
    const audit = await waitForLine(read(auditFile), (l) => l.tool === 'downstream_both');
    expect(audit).toMatchObject({ channel: 'audit', event: 'tool_call', outcome: 'ok', subject: 'alice' });
    expect(audit.downstreams).toEqual(['tickets', 'fragile']);
    // A call that used none: no field at all.
    const none = await waitForLine(read(logFile), (l) => l.msg === 'tool call' && l.tool === 'downstream_none');
    expect(none).not.toHaveProperty('downstreams');
    const noneAudit = await waitForLine(read(auditFile), (l) => l.tool === 'downstream_none');
    expect(noneAudit).not.toHaveProperty('downstreams');
    // Earlier calls of one downstream: named too (the refused passthrough among them).
    const earlier = jsonLines(read(logFile)()).filter((l) => l.msg === 'tool call' && l.tool === 'downstream_call');
    expect(earlier.length).toBeGreaterThan(5);
    for (const line of earlier) expect(line.downstreams).toEqual(['tickets']);
  });

  it('/metrics: requests by downstream and status class, retries, and every attempt in the latency histogram', async () => {
    const before = await scrape();
    await get('echo'); // 2xx
    await call({ service: 'tickets', method: 'POST', path: 'status/404' }); // 4xx
    await get('flaky'); // 5xx, retried twice
    await rpcError(client.callTool({ name: 'downstream_slow', arguments: { path: 'hang' } })); // no answer
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) =>
      after(name, { downstream: 'tickets', ...labels })! - before(name, { downstream: 'tickets', ...labels })!;
    const requests = 'mcp_downstream_requests_total';
    expect(delta(requests, { status_class: '2xx' })).toBe(1);
    expect(delta(requests, { status_class: '4xx' })).toBe(1);
    expect(delta(requests, { status_class: '5xx' })).toBe(3);
    expect(delta(requests, { status_class: 'none' })).toBe(1);
    expect(delta(requests, { status_class: '3xx' })).toBe(0);
    expect(delta('mcp_downstream_retries_total')).toBe(2);
    expect(delta('mcp_downstream_request_duration_seconds_count')).toBe(6);
    // Not public: without the scraper's credentials, refused.
    expect((await fetch(`${origin}/metrics`)).status).toBe(401);
  });

  it('/ready has downstream_fragile (it asks for it), not tickets, and follows its health path', async () => {
    expect(await ready()).toMatchObject({ status: 200, checks: { downstream_fragile: 'ok' } });
    expect((await ready()).checks).not.toHaveProperty('downstream_tickets');
    downstream.healthy = false;
    expect(await ready()).toMatchObject({ status: 503, checks: { downstream_fragile: 'down' } });
    downstream.healthy = true;
    expect(await ready()).toMatchObject({ status: 200, checks: { downstream_fragile: 'ok' } });
  });

  it('a down downstream opens the breaker (answered at once, /ready down, gauge 2), which recovers half-open', async () => {
    const breaker = async () => (await scrape())('mcp_downstream_breaker_state', { downstream: 'fragile' });
    expect(await breaker()).toBe(0);
    downstream.down = true;
    const hits = () => downstream.seen.filter((s) => s.url === '/api/down').length;
    for (let i = 0; i < 2; i++)
      expect(await get('down', 'fragile')).toMatchObject({
        isError: true,
        content: [{ text: 'Down for maintenance (HTTP 503)' }],
      });
    expect(await get('down', 'fragile')).toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining('did not answer: it is failing') }],
    });
    expect(hits()).toBe(2);
    expect(await breaker()).toBe(2);
    expect(await ready()).toMatchObject({ status: 503, checks: { downstream_fragile: 'down' } });
    downstream.down = false;
    // The fixture half-opens after 1 s: long enough that a loaded machine still sees it open above (300 ms was not).
    await sleep(1_050);
    // Half-open: the next request is its trial, and the replica is ready to take it.
    expect(await breaker()).toBe(1);
    expect(await ready()).toMatchObject({ status: 200, checks: { downstream_fragile: 'ok' } });
    expect(await get('down', 'fragile')).toMatchObject({ content: [{ type: 'text', text: '{"up":true}' }] });
    expect(hits()).toBe(3);
    expect(await breaker()).toBe(0);
  });

  it("no request carried the caller's token and no log line holds a token, stack or path", () => {
    expect(downstream.seen.length).toBeGreaterThan(10);
    for (const seen of downstream.seen) expect(JSON.stringify(seen.headers)).not.toContain(token);
    expect(logged.length).toBeGreaterThan(0);
    for (const line of [...logged, read(logFile)(), read(auditFile)()])
      expect(line).not.toMatch(new RegExp(`${token}|sekrit|/srv/|\\n\\s+at `));
  });
});
