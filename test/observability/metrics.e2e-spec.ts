import { Server, createServer } from 'node:net';
import { mcpPost, openMcpSession } from '../support/mcp-post';
import { MINIMAL_MAIN, RunningServer, startDeskHttp, startHttpServer } from '../support/server-process';
import { TestIssuer } from '../support/test-issuer';

const metricsUrlOf = (server: RunningServer): string => {
  const m = /metrics on (http:\/\/\S+)/.exec(server.stderr());
  if (!m) throw new Error(`no metrics line in:\n${server.stderr()}`);
  return m[1];
};

/** The value of one sample line (`name{labels} value`), or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
      return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

/** Prometheus `/metrics` of the built desk: a separate port by default, Basic auth on the main port when configured. */
describe('metrics', () => {
  describe('default configuration: a separate metrics listener', () => {
    let server: RunningServer;
    let scrape: string;

    beforeAll(async () => {
      server = await startDeskHttp({ MCP_RATE_LIMIT_PER_MINUTE: '6' });
      const session = await openMcpSession(server.url, server.token);
      const call = (id: number, name: string, args: Record<string, unknown>) =>
        mcpPost(
          server.url,
          { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } },
          server.token,
          { 'mcp-session-id': session },
        );
      await call(1, 'search_tickets', { query: 'printer' });
      await call(2, 'search_tickets', { query: 'vpn' });
      await call(3, 'get_ticket', { id: 'bad id' });
      // The budget is 6 calls a minute (invalid arguments are refused before the limiter): the last two are limited.
      for (let i = 4; i < 10; i++) await call(i, 'search_tickets', { query: 'x' });
      await mcpPost(server.url, { jsonrpc: '2.0', id: 20, method: 'tools/list' }, 'not-a-jwt');
      await mcpPost(server.url, { jsonrpc: '2.0', id: 21, method: 'tools/list' });
      const res = await fetch(metricsUrlOf(server));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      scrape = await res.text();
    });
    afterAll(() => server.stop());

    it('counts tool calls by tool and status', () => {
      expect(sample(scrape, 'mcp_tool_calls_total', { tool: 'search_tickets', status: 'ok' })).toBe(6);
      expect(sample(scrape, 'mcp_tool_calls_total', { tool: 'search_tickets', status: 'rate_limited' })).toBe(2);
      expect(sample(scrape, 'mcp_tool_calls_total', { tool: 'get_ticket', status: 'invalid_arguments' })).toBe(1);
    });

    it('has a call-duration histogram', () => {
      expect(
        sample(scrape, 'mcp_server_operation_duration_seconds_count', {
          method: 'tools/call',
          target: 'search_tickets',
          status: 'ok',
        }),
      ).toBe(6);
      expect(
        sample(scrape, 'mcp_server_operation_duration_seconds_bucket', {
          method: 'tools/call',
          target: 'search_tickets',
          status: 'ok',
          le: '+Inf',
        }),
      ).toBe(6);
      expect(sample(scrape, 'mcp_server_operation_duration_seconds_count', { method: 'initialize' })).toBeUndefined();
    });

    it('counts auth failures by reason and rate-limit events', () => {
      expect(
        sample(scrape, 'mcp_auth_failures_total', { reason: 'malformed_header' }) ??
          sample(scrape, 'mcp_auth_failures_total', { reason: 'invalid_token' }),
      ).toBeGreaterThanOrEqual(1);
      expect(sample(scrape, 'mcp_auth_failures_total', { reason: 'missing_token' })).toBe(1);
      expect(sample(scrape, 'mcp_rate_limit_events_total', { target: 'search_tickets', limit: 'rate' })).toBe(2);
    });

    it('reports active sessions and the runtime default metrics, labelled with the service', () => {
      expect(sample(scrape, 'mcp_active_sessions', { service: 'desk' })).toBe(1);
      expect(scrape).toMatch(/^process_cpu_user_seconds_total\{service="desk"\} /m);
      expect(scrape).toMatch(/^nodejs_eventloop_lag_seconds\{service="desk"\} /m);
      expect(scrape).toMatch(/^nodejs_heap_size_used_bytes\{service="desk"\} /m);
    });

    it('is not served on the MCP port without Basic credentials configured', async () => {
      const res = await fetch(new URL('/metrics', server.url));
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('mcp_tool_calls_total');
    });

    it('answers only GET /metrics on the metrics port', async () => {
      expect((await fetch(metricsUrlOf(server).replace('/metrics', '/'))).status).toBe(404);
      expect((await fetch(metricsUrlOf(server), { method: 'POST' })).status).toBe(404);
    });
  });

  describe('Basic auth on the main port, no separate listener', () => {
    let server: RunningServer;
    const basic = (user: string, password: string) => ({
      authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
    });

    beforeAll(async () => {
      server = await startDeskHttp({
        MCP_METRICS_PORT: 'false',
        MCP_METRICS_USER: 'prometheus',
        MCP_METRICS_PASSWORD: 's3cret-scrape',
      });
    });
    afterAll(() => server.stop());

    it('starts no metrics listener', () => {
      expect(server.stderr()).not.toMatch(/metrics on/);
    });

    it('refuses a scrape without or with wrong credentials, with a Basic challenge', async () => {
      const url = new URL('/metrics', server.url);
      const none = await fetch(url);
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toMatch(/^Basic realm="metrics"/);
      expect((await fetch(url, { headers: basic('prometheus', 'wrong') })).status).toBe(401);
      expect((await fetch(url, { headers: basic('prometheus', 's3cret-scrape-longer') })).status).toBe(401);
    });

    it('serves the scrape with the right credentials', async () => {
      const res = await fetch(new URL('/metrics', server.url), { headers: basic('prometheus', 's3cret-scrape') });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('# TYPE mcp_tool_calls_total counter');
    });

    it('never writes the scrape password to the logs', () => {
      expect(`${server.stdout!()}${server.stderr()}`).not.toContain('s3cret-scrape');
    });
  });

  describe('a metrics port already in use (a second local replica)', () => {
    let holder: Server;
    let port: number;
    beforeAll(async () => {
      holder = createServer();
      await new Promise<void>((ok) => holder.listen(0, '127.0.0.1', () => ok()));
      port = (holder.address() as { port: number }).port;
    });
    afterAll(() => new Promise<void>((ok) => holder.close(() => ok())));

    it('outside production: boots, says so, and serves metrics on a free port', async () => {
      // The minimal fixture logs through Nest's console logger, written at once (the desk's JSON log is batched).
      const issuer = await TestIssuer.start();
      const server = await startHttpServer(MINIMAL_MAIN, { ...issuer.env(), MCP_METRICS_PORT: String(port) });
      try {
        const url = metricsUrlOf(server);
        expect(url).not.toContain(`:${port}/`);
        expect((await fetch(url)).status).toBe(200);
        expect(`${server.stdout!()}${server.stderr()}`).toContain(
          `metrics port ${port} is in use (another server?): took a free one`,
        );
      } finally {
        await server.stop();
        await issuer.close();
      }
    });

    it('in production: the boot stops, naming the port and the setting', async () => {
      await expect(startDeskHttp({ MCP_METRICS_PORT: String(port), NODE_ENV: 'production' })).rejects.toThrow(
        new RegExp(`cannot serve metrics on 127\\.0\\.0\\.1:${port} \\(.*EADDRINUSE.*\\); set MCP_METRICS_PORT`),
      );
    });
  });
});
