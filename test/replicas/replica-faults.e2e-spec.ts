import { RunningServer, startHttpServer, DESK_MAIN } from '../support/server-process';
import { TestIssuer } from '../support/test-issuer';
import { mcpPost, openMcpSession } from '../support/mcp-post';
import { startReplicas, stopReplicas, suiteRedis } from '../support/replicas';
import { startCuttableProxy } from '../support/tcp-cut-proxy';
import { readEventIds, resumeStream } from '../support/sse-resume';

/**
 * Faults with replicas on the machine's Redis: a replica draining, a replica killed (under load, while it
 * streams), Redis cut off and back, Redis never there. (A kill behind the round-robin proxy has its own suite,
 * replica-kill-proxy.) Nothing another replica needs is lost, and every failure is
 * a clear, quick 503 that heals by itself.
 */
describe('replica and Redis faults', () => {
  const { prefix, cleanup } = suiteRedis();
  let issuer: TestIssuer;
  let token: string;

  beforeAll(async () => {
    issuer = await TestIssuer.start();
    token = await issuer.mint({ sub: 'alice' });
  });
  afterAll(async () => {
    await issuer?.close();
    await cleanup();
  });

  const list = (server: RunningServer, session: string, id: number, bearer = token) =>
    mcpPost(server.url, { jsonrpc: '2.0', id, method: 'tools/list' }, bearer, { 'mcp-session-id': session });

  it('counts calls at once for the whole deployment, and keeps sessions going when a replica drains on SIGTERM', async () => {
    const env = {
      ...issuer.env(),
      MCP_STORE: 'redis',
      MCP_REDIS_PREFIX: `${prefix}drain:`,
      MCP_MAX_CONCURRENT_CALLS: '2',
      MCP_SHUTDOWN_GRACE_MS: '3000',
    };
    const [c, d] = await startReplicas(2, env);
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
      await stopReplicas([c, d]);
    }
  });

  it('resumes a stream with Last-Event-ID on another replica after the one holding it was killed', async () => {
    const env = { ...issuer.env(), MCP_STORE: 'redis', MCP_REDIS_PREFIX: prefix };
    const [c, d] = await startReplicas(2, env);
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
      const seen = await readEventIds(res, 3);
      expect(seen.length).toBeGreaterThanOrEqual(3);
      const killed = new Promise((r) => c.process.once('exit', r));
      c.process.kill('SIGKILL');
      await killed;

      const resumed = await resumeStream(d.url, token, session, seen[0]);
      expect(resumed.status).toBe(200);
      expect(resumed.ids.slice(0, 2)).toEqual(seen.slice(1, 3));
      expect(resumed.text).toContain('"method":"notifications/progress"');
      // The session itself goes on on d.
      expect((await list(d, session, 8)).status).toBe(200);
    } finally {
      await stopReplicas([c, d]);
    }
  });

  it('loses no session when a replica is killed under steady load; the survivor answers every request', async () => {
    // A load as fast as the client can send: budgets out of the way (they are tested on their own).
    const env = { ...issuer.env(), MCP_STORE: 'redis', MCP_REDIS_PREFIX: prefix, MCP_REQUESTS_PER_MINUTE: '10000000' };
    const [c, d] = await startReplicas(2, env);
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
      await stopReplicas([c, d]);
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
