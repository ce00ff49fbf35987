import { mcpPost, openMcpSession } from '../support/mcp-post';
import { RunningServer, startDeskHttp } from '../support/server-process';
import { jsonLines, waitForLine } from '../support/log-lines';

const PLANTED = {
  email: 'planted.person.4711@example.com',
  cookie: 'session=planted-cookie-value-0815',
  bogusToken: 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJwbGFudGVkLXRva2VuLTQyIn0.cGxhbnRlZC1zaWduYXR1cmU',
  queryToken: 'planted-query-token-1337',
};

const createArgs = (key: string) => ({
  title: 'Printer on fire in room 4',
  description: 'Smoke coming out of the printer',
  category: 'hardware',
  priority: 'urgent',
  requester: PLANTED.email,
  idempotencyKey: key,
});

/** Structured JSON logs of the built desk: per-call entries, audit channel, auth failures, and what is never logged. */
describe('structured logs', () => {
  describe('default configuration (arguments not logged)', () => {
    let server: RunningServer;
    let sessionId: string;
    const all = () => `${server.stdout!()}\n${server.stderr()}`;

    beforeAll(async () => {
      server = await startDeskHttp();
      sessionId = await openMcpSession(server.url, server.token);
      const call = await mcpPost(
        server.url,
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'create_ticket', arguments: createArgs('logs-e2e-0001') },
        },
        server.token,
        {
          'mcp-session-id': sessionId,
          'x-request-id': 'req-create-0001',
          cookie: PLANTED.cookie,
        },
      );
      expect(call.status).toBe(200);
      await mcpPost(
        server.url,
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'search_tickets', arguments: { query: 'printer' } },
        },
        server.token,
        { 'mcp-session-id': sessionId, 'x-request-id': 'req-search-0002' },
      );
      await mcpPost(
        server.url,
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_ticket', arguments: { id: 'HD-999999' } } },
        server.token,
        { 'mcp-session-id': sessionId, 'x-request-id': 'req-get-0003' },
      );
      // Auth failures: a forged token, a token in the query string, no token at all.
      await mcpPost(server.url, { jsonrpc: '2.0', id: 4, method: 'tools/list' }, PLANTED.bogusToken, {
        'x-request-id': 'req-bad-token',
        cookie: PLANTED.cookie,
      });
      await mcpPost(
        `${server.url}?access_token=${PLANTED.queryToken}`,
        { jsonrpc: '2.0', id: 5, method: 'tools/list' },
        undefined,
        { 'x-request-id': 'req-query-token' },
      );
      await mcpPost(server.url, { jsonrpc: '2.0', id: 6, method: 'tools/list' }, undefined, {
        'x-request-id': 'req-no-token',
      });
      // Beyond the 60 s clock skew the server allows.
      await mcpPost(
        server.url,
        { jsonrpc: '2.0', id: 7, method: 'tools/list' },
        await server.issuer!.mint({ expiresIn: -600 }),
        { 'x-request-id': 'req-expired' },
      );
      await waitForLine(server.stdout!, (l) => l.requestId === 'req-expired' && l.msg === 'request refused');
    });
    afterAll(() => server.stop());

    it('writes every line as JSON with a level and time', () => {
      const lines = jsonLines(server.stdout!());
      expect(lines.length).toBeGreaterThan(5);
      for (const line of lines)
        expect(line).toEqual(expect.objectContaining({ level: expect.any(String), time: expect.any(String) }));
    });

    it('logs one entry per tool call: tool, request id, session id, duration, status', async () => {
      const entry = await waitForLine(server.stdout!, (l) => l.msg === 'tool call' && l.tool === 'create_ticket');
      expect(entry).toMatchObject({
        context: 'McpCalls',
        requestId: 'req-create-0001',
        sessionId,
        status: 'ok',
        transport: 'http',
        level: 'info',
      });
      expect(entry.durationMs).toEqual(expect.any(Number));
      expect(entry.arguments).toBeUndefined();
      const search = jsonLines(server.stdout!()).filter((l) => l.msg === 'tool call' && l.tool === 'search_tickets');
      expect(search).toHaveLength(1);
      expect(search[0]).toMatchObject({ requestId: 'req-search-0002', status: 'ok' });
      const missing = await waitForLine(server.stdout!, (l) => l.msg === 'tool call' && l.tool === 'get_ticket');
      expect(missing).toMatchObject({
        requestId: 'req-get-0003',
        status: expect.stringMatching(/^(tool_error|resource_not_found)$/),
      });
    });

    it('writes an audit entry for a mutating tool on its own channel', async () => {
      const audit = await waitForLine(server.stderr, (l) => l.channel === 'audit');
      expect(audit).toMatchObject({
        event: 'tool_call',
        tool: 'create_ticket',
        risk: expect.stringMatching(/^(low|medium|high)$/),
        subject: expect.any(String),
        requestId: 'req-create-0001',
        sessionId,
        outcome: 'ok',
      });
      expect(audit.context).toBeUndefined();
      // Read-only tools are not audited.
      expect(jsonLines(server.stderr()).filter((l) => l.channel === 'audit' && l.tool !== 'create_ticket')).toEqual([]);
      // The audit channel is apart from the application log (stderr vs stdout by default).
      expect(jsonLines(server.stdout!()).filter((l) => l.channel === 'audit')).toEqual([]);
    });

    it('logs auth failures with a reason and the request id, the first of each reason per source', async () => {
      const failures = jsonLines(server.stdout!()).filter(
        (l) => l.msg === 'request refused' && String(l.reason).startsWith('auth:'),
      );
      const byId = Object.fromEntries(failures.map((f) => [f.requestId, f.reason]));
      expect(byId).toMatchObject({
        'req-bad-token': 'auth:invalid_token',
        'req-query-token': 'auth:token_in_query',
        'req-no-token': 'auth:missing_token',
        'req-expired': 'auth:expired_token',
      });
      expect(failures[0]).toMatchObject({ context: 'McpRefusals', level: 'warn', source: expect.any(String) });
    });

    it('logs an access line per HTTP request with the request id, method and path only; none per refusal', async () => {
      const base = new URL(server.url).origin;
      await fetch(`${base}/?secret=1`, { headers: { 'x-request-id': 'req-access-0001' } });
      const access = await waitForLine(
        server.stdout!,
        (l) => l.msg === 'request completed' && l.req?.id === 'req-access-0001',
      );
      expect(access.req).toEqual({ id: 'req-access-0001', method: 'GET', path: '/' });
      expect(access.res).toEqual({ statusCode: 200 });
      // A refused request (401) is in the aggregated refusal line above, not in an access line of its own.
      expect(
        jsonLines(server.stdout!()).filter((l) => l.msg === 'request completed' && l.req?.id === 'req-query-token'),
      ).toEqual([]);
    });

    it('logs other 4xx answers aggregated per source and status, with the path cut to 256 characters', async () => {
      const base = new URL(server.url).origin;
      const long = `/${'A'.repeat(15_000)}`;
      await fetch(`${base}${long}?secret=1`, { headers: { 'x-request-id': 'req-long-0001' } });
      const first = await waitForLine(
        server.stdout!,
        (l) => l.msg === 'request refused' && l.requestId === 'req-long-0001',
      );
      expect(first).toMatchObject({ reason: 'http:404', method: 'GET', context: 'McpRefusals', level: 'warn' });
      expect(first.path).toBe(`${long.slice(0, 256)}…`);
      const before = server.stdout!().length;
      // The abuse run: 15 KB URLs, 415s and 400s in a loop wrote 38.6 MB in 5 s from one client.
      for (let i = 0; i < 40; i++) {
        await fetch(`${base}${long}`);
        await fetch(server.url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
      }
      await new Promise((r) => setTimeout(r, 200));
      const written = server.stdout!().slice(before);
      expect(written.length).toBeLessThan(2_000);
      expect(written).not.toContain('A'.repeat(300));
      expect(jsonLines(server.stdout!()).some((l) => l.msg === 'request completed' && l.res?.statusCode === 404)).toBe(
        false,
      );
    });

    it('returns X-Request-Id on every HTTP response, not only the MCP endpoint', async () => {
      const base = new URL(server.url).origin;
      for (const path of ['/health', '/ready', '/', '/no-such-route']) {
        const given = await fetch(`${base}${path}`, { headers: { 'x-request-id': 'probe-0001' } });
        expect(given.headers.get('x-request-id')).toBe('probe-0001');
        const unsafe = await fetch(`${base}${path}`, { headers: { 'x-request-id': 'bad id <script>' } });
        expect(unsafe.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      }
    });

    it('never logs a token, a cookie, or a sensitive argument', () => {
      const text = all();
      expect(text).not.toContain(server.token!);
      expect(text).not.toContain(PLANTED.bogusToken);
      expect(text).not.toContain(PLANTED.bogusToken.split('.')[2]);
      expect(text).not.toContain(PLANTED.queryToken);
      expect(text).not.toContain('planted-cookie-value');
      expect(text).not.toContain(PLANTED.email);
      expect(text.toLowerCase()).not.toContain('bearer ');
    });
  });

  describe('with MCP_LOG_ARGUMENTS=true', () => {
    let server: RunningServer;

    beforeAll(async () => {
      server = await startDeskHttp({ MCP_LOG_ARGUMENTS: 'true' });
      const sessionId = await openMcpSession(server.url, server.token);
      await mcpPost(
        server.url,
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'create_ticket', arguments: createArgs('logs-e2e-0002') },
        },
        server.token,
        { 'mcp-session-id': sessionId, 'x-request-id': 'req-args-0001' },
      );
    });
    afterAll(() => server.stop());

    it('logs arguments with the fields marked sensitive masked, in the call and the audit entry', async () => {
      const entry = await waitForLine(server.stdout!, (l) => l.msg === 'tool call' && l.requestId === 'req-args-0001');
      expect(entry.arguments).toMatchObject({
        title: 'Printer on fire in room 4',
        category: 'hardware',
        requester: '[REDACTED]',
      });
      const audit = await waitForLine(server.stderr, (l) => l.channel === 'audit' && l.requestId === 'req-args-0001');
      expect(audit.arguments).toMatchObject({ title: 'Printer on fire in room 4', requester: '[REDACTED]' });
      expect(`${server.stdout!()}${server.stderr()}`).not.toContain(PLANTED.email);
      expect(`${server.stdout!()}${server.stderr()}`).not.toContain(server.token!);
    });
  });
});
