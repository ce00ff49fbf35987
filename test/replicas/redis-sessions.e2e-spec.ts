import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { DESK_MAIN, RunningServer, startHttpServer } from '../support/server-process';
import { TestIssuer } from '../support/test-issuer';
import { mcpPost, openMcpSession } from '../support/mcp-post';
import { startCuttableProxy } from '../support/tcp-cut-proxy';

/**
 * Two replica processes of the desk fixture on the machine's Redis (`MCP_STORE=redis`, a key prefix of their own):
 * a session opened on one is served by the other, and ended everywhere at once.
 */
describe('sessions across replicas on Redis', () => {
  const prefix = `test:${randomBytes(6).toString('hex')}:`;
  let issuer: TestIssuer;
  let a: RunningServer;
  let b: RunningServer;
  let token: string;
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true });

  beforeAll(async () => {
    issuer = await TestIssuer.start();
    const env = { ...issuer.env(), MCP_STORE: 'redis', MCP_REDIS_PREFIX: prefix };
    [a, b] = await Promise.all([startHttpServer(DESK_MAIN, env), startHttpServer(DESK_MAIN, env)]);
    token = await issuer.mint({ sub: 'alice' });
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await issuer?.close();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
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
    const [c, d] = await Promise.all([startHttpServer(DESK_MAIN, env), startHttpServer(DESK_MAIN, env)]);
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
      await Promise.all([c.stop(), d.stop()]);
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
    const [c, d] = await Promise.all([startHttpServer(DESK_MAIN, env), startHttpServer(DESK_MAIN, env)]);
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
      await Promise.all([c.stop(), d.stop()]);
    }
  });

  it('counts calls at once for the whole deployment, and keeps sessions going when a replica drains on SIGTERM', async () => {
    const env = {
      ...issuer.env(),
      MCP_STORE: 'redis',
      MCP_REDIS_PREFIX: `${prefix}drain:`,
      MCP_MAX_CONCURRENT_CALLS: '2',
      MCP_SHUTDOWN_GRACE_MS: '3000',
    };
    const [c, d] = await Promise.all([startHttpServer(DESK_MAIN, env), startHttpServer(DESK_MAIN, env)]);
    try {
      const frank = await issuer.mint({ sub: 'frank' });
      const session = await openMcpSession(c.url, frank);
      const exportOn = (server: RunningServer, id: number) =>
        mcpPost(
          server.url,
          { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'export_tickets', arguments: {} } },
          frank,
          {
            'mcp-session-id': session,
          },
        );
      // Two slow calls on c take both slots of the deployment: a third on d is refused.
      const running = [exportOn(c, 1), exportOn(c, 2)];
      await new Promise((r) => setTimeout(r, 300));
      const third = await exportOn(d, 3);
      expect(third.status).toBe(429);
      expect(await third.json()).toMatchObject({ error: { code: -32003 } });
      // c drains: its calls finish and answer, the session record stays for d.
      const exited = new Promise((r) => c.process.once('exit', r));
      c.process.kill('SIGTERM');
      expect((await Promise.all(running)).map((r) => r.status)).toEqual([200, 200]);
      await exited;
      expect((await list(d, session, 4, frank)).status).toBe(200);
      const again = await exportOn(d, 5);
      expect(again.status).toBe(200); // the slots came back with the calls
    } finally {
      await d.stop();
      if (c.process.exitCode === null && c.process.signalCode === null) await c.stop();
    }
  });

  it('resumes a stream with Last-Event-ID on another replica after the one holding it was killed', async () => {
    const env = { ...issuer.env(), MCP_STORE: 'redis', MCP_REDIS_PREFIX: prefix };
    const [c, d] = await Promise.all([startHttpServer(DESK_MAIN, env), startHttpServer(DESK_MAIN, env)]);
    try {
      const session = await openMcpSession(c.url, token);
      // A streamed call on c: its progress events get ids and go to the shared event log.
      const res = await mcpPost(
        c.url,
        {
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: { name: 'export_tickets', arguments: {}, _meta: { progressToken: 'p7' } },
        },
        token,
        { 'mcp-session-id': session },
      );
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const reader = res.body!.getReader();
      const ids: string[] = [];
      let text = '';
      while (ids.filter((i) => !i.endsWith('_0')).length < 3) {
        const { value, done } = await reader.read();
        if (done) break;
        text += Buffer.from(value).toString();
        ids.splice(0, ids.length, ...[...text.matchAll(/^id: (\S+)$/gm)].map((m) => m[1]));
      }
      const seen = ids.filter((i) => !i.endsWith('_0'));
      expect(seen.length).toBeGreaterThanOrEqual(3);
      const killed = new Promise((r) => c.process.once('exit', r));
      c.process.kill('SIGKILL');
      await killed;

      const resumed = await fetch(d.url, {
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'text/event-stream',
          'mcp-session-id': session,
          'mcp-protocol-version': '2025-11-25',
          'last-event-id': seen[0],
        },
      });
      expect(resumed.status).toBe(200);
      const replay = await resumed.text();
      const replayedIds = [...replay.matchAll(/^id: (\S+)$/gm)].map((m) => m[1]);
      expect(replayedIds.slice(0, 2)).toEqual(seen.slice(1, 3));
      expect(replay).toContain('"method":"notifications/progress"');
      // The session itself goes on on d.
      expect((await list(d, session, 8)).status).toBe(200);
    } finally {
      await d.stop();
      if (c.process.exitCode === null && c.process.signalCode === null) await c.stop();
    }
  });

  it('loses no session when a replica is killed under steady load; the survivor answers every request', async () => {
    // A load as fast as the client can send: budgets out of the way (they are tested on their own).
    const env = { ...issuer.env(), MCP_STORE: 'redis', MCP_REDIS_PREFIX: prefix, MCP_REQUESTS_PER_MINUTE: '10000000' };
    const [c, d] = await Promise.all([startHttpServer(DESK_MAIN, env), startHttpServer(DESK_MAIN, env)]);
    const steady = await issuer.mint({ sub: 'steady' });
    try {
      const sessions = [];
      for (let i = 0; i < 10; i++) sessions.push(await openMcpSession((i % 2 ? c : d).url, steady));
      // Steady load on the survivor from every session while c dies.
      let stop = false;
      const statuses: number[] = [];
      const load = Promise.all(
        sessions.map(async (session, i) => {
          for (let n = 0; !stop; n++) statuses.push((await list(d, session, 1_000 * i + n, steady)).status);
        }),
      );
      await new Promise((r) => setTimeout(r, 300));
      const killed = new Promise((r) => c.process.once('exit', r));
      c.process.kill('SIGKILL');
      await killed;
      await new Promise((r) => setTimeout(r, 700));
      stop = true;
      await load;
      expect(statuses.length).toBeGreaterThan(50);
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      for (const [i, session] of sessions.entries())
        expect((await list(d, session, 99_000 + i, steady)).status).toBe(200);
    } finally {
      await d.stop();
      if (c.process.exitCode === null && c.process.signalCode === null) await c.stop();
    }
  });

  it('answers 503 while Redis is cut off and recovers by itself when it is back, sessions intact', async () => {
    const link = await startCuttableProxy('127.0.0.1', 6379);
    const replica = await startHttpServer(DESK_MAIN, {
      ...issuer.env(),
      MCP_STORE: 'redis',
      MCP_REDIS_PREFIX: prefix,
      REDIS_URL: `redis://127.0.0.1:${link.port}`,
      MCP_READY_CACHE_MS: '0',
    });
    try {
      const session = await openMcpSession(replica.url, token);
      expect((await list(replica, session, 20)).status).toBe(200);
      await link.cut();
      // A session held here is checked against Redis at most once a second: past that, the request needs Redis.
      await new Promise((r) => setTimeout(r, 1_100));
      const started = Date.now();
      const during = await list(replica, session, 21);
      expect(during.status).toBe(503);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(await during.json()).toMatchObject({ error: { code: -32006 } });
      expect((await fetch(new URL('/ready', replica.url))).status).toBe(503);

      await link.restore();
      const back = Date.now();
      let status = 0;
      while (status !== 200 && Date.now() - back < 10_000) {
        status = (await list(replica, session, 22)).status;
        if (status !== 200) await new Promise((r) => setTimeout(r, 250));
      }
      // The same session, no restart: ioredis reconnects within its 2 s backoff.
      expect(status).toBe(200);
      expect(Date.now() - back).toBeLessThan(6_000);
      expect((await fetch(new URL('/ready', replica.url))).status).toBe(200);
      expect(replica.stdout!()).not.toMatch(/\bat .+\(.+:\d+:\d+\)/);
    } finally {
      await replica.stop();
      await link.close();
    }
  });

  it('answers 503 -32006 quickly, never a hang, when the store cannot be reached; /ready names it', async () => {
    const down = await startHttpServer(DESK_MAIN, {
      ...issuer.env(),
      MCP_STORE: 'redis',
      REDIS_URL: 'redis://127.0.0.1:1',
      MCP_REDIS_PREFIX: prefix,
    });
    try {
      const started = Date.now();
      const init = await mcpPost(
        down.url,
        {
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
        },
        token,
      );
      expect(init.status).toBe(503);
      expect(init.headers.get('retry-after')).toBe('2');
      expect(await init.json()).toMatchObject({ error: { code: -32006, message: expect.stringMatching(/store/) } });
      expect(Date.now() - started).toBeLessThan(5_000);
      const ready = await fetch(new URL('/ready', down.url));
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ checks: { session_store: 'down' } });
      expect(down.stdout!()).not.toMatch(/\bat .+\(.+:\d+:\d+\)/);
    } finally {
      await down.stop();
    }
  });
});
