import { RunningServer, startDeskHttp } from './support/server-process';
import { Agent, fetch as undiciFetch } from 'undici';
import { mcpPost, openMcpSession } from './support/mcp-post';

const INIT = {
  jsonrpc: '2.0',
  id: 'init-1',
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'limits', version: '1' } },
};

const metricsOf = async (server: RunningServer) => {
  const url = /metrics on (http:\/\/\S+)/.exec(server.stderr())![1];
  return (await fetch(url)).text();
};

/**
 * Sessions are bounded (issue: 722,175 sessions from one token took the heap to 692 MB): per subject, in total,
 * and `initialize` per subject per minute; a refusal is a JSON-RPC error with an HTTP status and `Retry-After`,
 * counted in `mcp_rate_limit_events_total{target="initialize"}`.
 */
describe('session limits', () => {
  describe('open sessions per subject and in total', () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startDeskHttp({ MCP_MAX_SESSIONS_PER_SUBJECT: '3', MCP_MAX_SESSIONS: '5' });
    });
    afterAll(() => server.stop());

    it('refuses a subject past its cap with 429 -32003 session_limit and Retry-After, until it ends one', async () => {
      const alice = await server.issuer!.mint({ sub: 'alice' });
      const sessions = [];
      for (let i = 0; i < 3; i++) sessions.push(await openMcpSession(server.url, alice));
      const refused = await mcpPost(server.url, INIT, alice);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('60');
      expect(refused.headers.get('mcp-session-id')).toBeNull();
      expect(await refused.json()).toMatchObject({
        jsonrpc: '2.0',
        id: 'init-1',
        error: { code: -32003, message: expect.stringContaining('at most 3'), data: { reason: 'session_limit' } },
      });
      // Another subject is not affected; ending a session frees a place.
      await openMcpSession(server.url, await server.issuer!.mint({ sub: 'bob' }));
      const ended = await fetch(server.url, {
        method: 'DELETE',
        headers: {
          authorization: `Bearer ${alice}`,
          'mcp-session-id': sessions[0],
          'mcp-protocol-version': '2025-11-25',
        },
      });
      expect(ended.status).toBe(200);
      await expect(openMcpSession(server.url, alice)).resolves.toMatch(/^[A-Za-z0-9_-]{43}$/);
    });

    it('refuses everyone at the process cap with 503 -32006 session_capacity and Retry-After', async () => {
      // alice 3 + bob 1 open; one more fits, then the process is full.
      await openMcpSession(server.url, await server.issuer!.mint({ sub: 'carol' }));
      const refused = await mcpPost(server.url, INIT, await server.issuer!.mint({ sub: 'dave' }));
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('30');
      expect(await refused.json()).toMatchObject({ error: { code: -32006, data: { reason: 'session_capacity' } } });
    });

    it('counts every refusal in mcp_rate_limit_events_total{target="initialize"}', async () => {
      const scrape = await metricsOf(server);
      expect(scrape).toMatch(/mcp_rate_limit_events_total\{[^}]*target="initialize"[^}]*limit="sessions"[^}]*\} 1$/m);
      expect(scrape).toMatch(
        /mcp_rate_limit_events_total\{[^}]*target="initialize"[^}]*limit="sessions_total"[^}]*\} 1$/m,
      );
    });
  });

  describe('initialize rate per subject', () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startDeskHttp({ MCP_INITIALIZE_PER_MINUTE: '2' });
    });
    afterAll(() => server.stop());

    it('refuses the third initialize in a minute with 429 -32003 initialize_rate, even when sessions were ended', async () => {
      const token = server.token!;
      for (let i = 0; i < 2; i++) {
        const id = await openMcpSession(server.url, token);
        await fetch(server.url, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${token}`, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
        });
      }
      const refused = await mcpPost(server.url, INIT, token);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await refused.json()).toMatchObject({ error: { code: -32003, data: { reason: 'initialize_rate' } } });
      expect(await metricsOf(server)).toMatch(
        /mcp_rate_limit_events_total\{[^}]*target="initialize"[^}]*limit="rate"[^}]*\} 1$/m,
      );
    });
  });

  describe('legacy HTTP+SSE sessions', () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startDeskHttp({ MCP_LEGACY_SSE: 'true', MCP_MAX_SESSIONS_PER_SUBJECT: '1' });
    });
    afterAll(() => server.stop());

    it('count too: a second GET /sse of the same subject is refused with 429 and Retry-After', async () => {
      const sse = server.url.replace(/\/mcp$/, '/sse');
      const headers = { authorization: `Bearer ${server.token}`, accept: 'text/event-stream' };
      const first = new AbortController();
      const open = await fetch(sse, { headers, signal: first.signal });
      expect(open.status).toBe(200);
      const second = await fetch(sse, { headers });
      expect(second.status).toBe(429);
      expect(second.headers.get('retry-after')).toBe('60');
      expect(await second.json()).toMatchObject({ error: { code: -32003 } });
      first.abort();
    });
  });

  describe('callers without a token (anonymous listing)', () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startDeskHttp({ MCP_ANONYMOUS_LISTING: 'true', MCP_MAX_SESSIONS_PER_SUBJECT: '2' });
    });
    afterAll(() => server.stop());

    /** initialize without a token from a given loopback source address. */
    const initFrom = async (localAddress: string) => {
      const dispatcher = new Agent({ localAddress });
      try {
        const res = await undiciFetch(server.url, {
          method: 'POST',
          dispatcher,
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2025-11-25',
          },
          body: JSON.stringify(INIT),
        });
        return { status: res.status, body: (await res.json()) as { error?: { data?: { reason?: string } } } };
      } finally {
        await dispatcher.close();
      }
    };

    it('are counted per source address: one stranger cannot take the places of every other anonymous caller', async () => {
      expect((await initFrom('127.0.0.1')).status).toBe(200);
      expect((await initFrom('127.0.0.1')).status).toBe(200);
      const refused = await initFrom('127.0.0.1');
      expect(refused.status).toBe(429);
      expect(refused.body.error?.data?.reason).toBe('session_limit');
      expect((await initFrom('127.0.0.2')).status).toBe(200);
    });
  });
});
