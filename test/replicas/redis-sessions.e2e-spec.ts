import { RunningServer } from '../support/server-process';
import { TestIssuer } from '../support/test-issuer';
import { mcpPost, openMcpSession } from '../support/mcp-post';
import { startReplicas, stopReplicas, suiteRedis } from '../support/replicas';

/**
 * Two replica processes of the desk fixture on the machine's Redis (`MCP_STORE=redis`, a key prefix of their own):
 * a session opened on one is served by the other and ended everywhere at once; limits and caps hold for the
 * deployment.
 */
describe('sessions across replicas on Redis', () => {
  const { prefix, redis, cleanup } = suiteRedis();
  let issuer: TestIssuer;
  let a: RunningServer;
  let b: RunningServer;
  let token: string;

  beforeAll(async () => {
    issuer = await TestIssuer.start();
    [a, b] = await startReplicas(2, { ...issuer.env(), MCP_STORE: 'redis', MCP_REDIS_PREFIX: prefix });
    token = await issuer.mint({ sub: 'alice' });
  });
  afterAll(async () => {
    await stopReplicas([a, b]);
    await issuer?.close();
    await cleanup();
  });

  const list = (server: RunningServer, session: string, id: number, bearer = token) =>
    mcpPost(server.url, { jsonrpc: '2.0', id, method: 'tools/list' }, bearer, { 'mcp-session-id': session });

  it('serves a session opened on one replica from the other, with what was negotiated', async () => {
    const session = await openMcpSession(a.url, token);
    expect(await redis.exists(`${prefix}session:${session}`)).toBe(1);
    const res = await list(b, session, 1);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(0);
    const call = await mcpPost(
      b.url,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_tickets', arguments: { query: 'vpn' } } },
      token,
      { 'mcp-session-id': session },
    );
    expect(call.status).toBe(200);
    expect(await call.json()).toMatchObject({ id: 2, result: { structuredContent: expect.any(Object) } });
  });

  it('keeps the session bound to its subject on every replica', async () => {
    const session = await openMcpSession(a.url, token);
    const mallory = await issuer.mint({ sub: 'mallory' });
    const res = await mcpPost(b.url, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, mallory, {
      'mcp-session-id': session,
    });
    expect(res.status).toBe(403);
  });

  it('ends a session on every replica at once when it is deleted on one', async () => {
    const session = await openMcpSession(a.url, token);
    expect((await list(a, session, 4)).status).toBe(200);
    expect((await list(b, session, 5)).status).toBe(200);
    const ended = await fetch(b.url, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}`, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
    });
    expect(ended.status).toBe(200);
    expect((await list(a, session, 6)).status).toBe(404);
    expect(await redis.exists(`${prefix}session:${session}`)).toBe(0);
  });

  it('counts rate limits for the whole deployment: N calls a minute in total, not N per replica', async () => {
    const env = {
      ...issuer.env(),
      MCP_STORE: 'redis',
      MCP_REDIS_PREFIX: `${prefix}limits:`,
      MCP_RATE_LIMIT_PER_MINUTE: '6',
    };
    const [c, d] = await startReplicas(2, env);
    try {
      const bob = await issuer.mint({ sub: 'bob' });
      const session = await openMcpSession(c.url, bob);
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) {
        const res = await mcpPost(
          (i % 2 ? c : d).url,
          {
            jsonrpc: '2.0',
            id: i,
            method: 'tools/call',
            params: { name: 'search_tickets', arguments: { query: 'x' } },
          },
          bob,
          { 'mcp-session-id': session },
        );
        statuses.push(res.status);
      }
      expect(statuses.filter((s) => s === 200)).toHaveLength(6);
      expect(statuses.slice(6)).toEqual([429, 429, 429, 429]);
    } finally {
      await stopReplicas([c, d]);
    }
  });

  it('holds the session caps for the whole deployment, not per replica', async () => {
    const env = {
      ...issuer.env(),
      MCP_STORE: 'redis',
      MCP_REDIS_PREFIX: `${prefix}caps:`,
      MCP_MAX_SESSIONS_PER_SUBJECT: '3',
      MCP_INITIALIZE_PER_MINUTE: '5',
    };
    const [c, d] = await startReplicas(2, env);
    try {
      const carol = await issuer.mint({ sub: 'carol' });
      const INIT = {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'caps', version: '1' } },
      };
      const statuses = [];
      for (const server of [c, d, c, d]) statuses.push((await mcpPost(server.url, INIT, carol)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      // The initialize rate is shared as well: 5 a minute in all, even with every session ended at once.
      const erin = await issuer.mint({ sub: 'erin' });
      const rates = [];
      for (const server of [c, d, c, d, c, d]) {
        const res = await mcpPost(server.url, INIT, erin);
        rates.push(res.status);
        const id = res.headers.get('mcp-session-id');
        if (id)
          await fetch(server.url, {
            method: 'DELETE',
            headers: { authorization: `Bearer ${erin}`, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
          });
      }
      expect(rates).toEqual([200, 200, 200, 200, 200, 429]);
    } finally {
      await stopReplicas([c, d]);
    }
  });
});
