import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  Client as Client2,
  StreamableHTTPClientTransport as StreamableHTTPClientTransport2,
} from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { RunningServer } from '../support/server-process';
import { managementUrlOf } from '../support/management-url';
import { startReplicas } from '../support/replicas';
import { mcpPost } from '../support/mcp-post';
import { readEventIds, resumeStream } from '../support/sse-resume';
import { TestIssuer } from '../support/test-issuer';
import { RoundRobinProxy, startRoundRobinProxy } from '../support/round-robin-proxy';

const waitFor = async (check: () => boolean, ms = 5_000) => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
};

/**
 * Three desk replicas on the machine's Redis behind a round-robin proxy with no session affinity, driven by the
 * official 1.x and 2.x clients: consecutive requests of one session land on different replicas, so every answer,
 * update, cancellation, progress report and client answer below crosses replicas through the session store, the
 * message bus and the event log. The last test kills the replica holding a stream.
 */
describe('one session across three replicas behind a round-robin proxy (official clients 1.x and 2.x)', () => {
  const prefix = `test:${randomBytes(6).toString('hex')}:`;
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true });
  let issuer: TestIssuer;
  let replicas: RunningServer[];
  let proxy: RoundRobinProxy;
  let client: Client;
  let transport: StreamableHTTPClientTransport;

  beforeAll(async () => {
    issuer = await TestIssuer.start();
    const env = { ...issuer.env(), MCP_STORE: 'redis', MCP_REDIS_PREFIX: prefix };
    replicas = await startReplicas(3, env);
    proxy = await startRoundRobinProxy(replicas.map((r) => new URL(r.url).origin));
  });
  afterAll(async () => {
    await proxy?.close();
    await Promise.all((replicas ?? []).map((r) => r.stop()));
    await issuer?.close();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  beforeEach(async () => {
    client = new Client({ name: 'replicas', version: '1.0.0' }, { capabilities: { sampling: {}, elicitation: {} } });
    const token = await issuer.mint({ sub: 'alice' });
    transport = new StreamableHTTPClientTransport(new URL('/mcp', proxy.origin), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    });
    await client.connect(transport);
  });
  afterEach(() => client.close());

  it('lists and calls on whichever replica the proxy picks', async () => {
    const before = [...proxy.counts];
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('search_tickets');
    for (let i = 0; i < 6; i++) {
      const result = await client.callTool({ name: 'search_tickets', arguments: { query: 'vpn' } });
      expect(result.isError).toBeFalsy();
    }
    for (const [i, count] of proxy.counts.entries()) expect(count - before[i]).toBeGreaterThan(1);
  });

  it('reports the progress of a call to the client, from whichever replica runs it', async () => {
    const progress: number[] = [];
    const result = await client.callTool({ name: 'export_tickets', arguments: {} }, undefined, {
      onprogress: (p) => void progress.push(p.progress),
    });
    expect(result.isError).toBeFalsy();
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
  });

  it('answers elicitation and sampling through another replica, and delivers an update to a subscriber anywhere', async () => {
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { confirm: true } }));
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: 'assistant',
      content: { type: 'text', text: 'Dear requester' },
      model: 'test-model',
    }));
    await client.subscribeResource({ uri: 'desk://tickets/HD-3' });
    await new Promise((r) => setTimeout(r, 200)); // the GET stream is open on one replica
    for (let i = 0; i < 2; i++) {
      const draft = await client.callTool({ name: 'draft_reply', arguments: { id: 'HD-4' } });
      expect((draft.content as { text: string }[])[0].text).toBe('Dear requester');
    }
    // Each replica keeps its own tickets (the fixture's data is per process); both close HD-3 in turn.
    for (let i = 0; i < 2; i++) {
      const closed = await client.callTool({ name: 'close_ticket', arguments: { id: 'HD-3', resolution: 'done' } });
      expect(closed.structuredContent).toMatchObject({ id: 'HD-3', status: 'closed' });
    }
    await waitFor(() => updated.includes('desk://tickets/HD-3'));
  });

  it('cancels a call running on another replica', async () => {
    const controller = new AbortController();
    const call = client.callTool({ name: 'export_tickets', arguments: {} }, undefined, { signal: controller.signal });
    await new Promise((r) => setTimeout(r, 300));
    controller.abort('changed my mind');
    await expect(call).rejects.toThrow();
    const cancelled = async () => {
      let n = 0;
      for (const r of replicas) {
        const url = (await managementUrlOf(r)).href;
        const scrape = await (await fetch(url)).text();
        const m = /^mcp_tool_calls_total\{[^}]*tool="export_tickets"[^}]*status="cancelled"[^}]*\} (\d+)$/m.exec(
          scrape,
        );
        n += Number(m?.[1] ?? 0);
      }
      return n;
    };
    const until = Date.now() + 3_000;
    while ((await cancelled()) < 1 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(await cancelled()).toBe(1);
    expect(await client.ping()).toEqual({});
  });

  it('serves a whole session of the official 2.x client the same way', async () => {
    const token = await issuer.mint({ sub: 'bob' });
    const modern = new Client2(
      { name: 'replicas-2x', version: '2.0.0' },
      { capabilities: { elicitation: {}, sampling: {} } },
    );
    const updated: string[] = [];
    await modern.connect(
      new StreamableHTTPClientTransport2(new URL('/mcp', proxy.origin), { authProvider: { token: async () => token } }),
    );
    try {
      modern.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri));
      modern.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: true } }));
      modern.setRequestHandler('sampling/createMessage', async () => ({
        role: 'assistant',
        content: { type: 'text', text: 'Dear requester' },
        model: 'test-model',
      }));
      expect((await modern.listTools()).tools.map((t) => t.name)).toContain('close_ticket');
      await modern.subscribeResource({ uri: 'desk://tickets/HD-6' });
      await new Promise((r) => setTimeout(r, 200));
      const draft = await modern.callTool({ name: 'draft_reply', arguments: { id: 'HD-6' } });
      expect((draft.content as { text: string }[])[0].text).toBe('Dear requester');
      for (let i = 0; i < 2; i++) {
        const closed = await modern.callTool({ name: 'close_ticket', arguments: { id: 'HD-6', resolution: 'done' } });
        expect(closed.structuredContent).toMatchObject({ id: 'HD-6', status: 'closed' });
      }
      await waitFor(() => updated.includes('desk://tickets/HD-6'));
      expect(await modern.ping()).toEqual({});
    } finally {
      await modern.close();
    }
  });

  it('resumes a stream with Last-Event-ID through the proxy after the replica holding it is killed; the session goes on', async () => {
    const token = await issuer.mint({ sub: 'alice' });
    const session = transport.sessionId!;
    // A streamed call in the client's session: its progress events get ids and go to the shared event log.
    const res = await mcpPost(
      `${proxy.origin}/mcp`,
      {
        jsonrpc: '2.0',
        id: 70,
        method: 'tools/call',
        params: { name: 'export_tickets', arguments: {}, _meta: { progressToken: 'p70' } },
      },
      token,
      { 'mcp-session-id': session },
    );
    const holder = replicas[proxy.routes[proxy.routes.length - 1]];
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const seen = await readEventIds(res, 3);
    expect(seen.length).toBeGreaterThanOrEqual(3);
    const killed = new Promise((r) => holder.process.once('exit', r));
    holder.process.kill('SIGKILL');
    await killed;

    // The proxy skips the dead replica; any other one replays what came after the first event from the log.
    const resumed = await resumeStream(`${proxy.origin}/mcp`, token, session, seen[0]);
    expect(resumed.status).toBe(200);
    expect(resumed.ids.slice(0, 2)).toEqual(seen.slice(1, 3));
    expect(resumed.text).toContain('"method":"notifications/progress"');
    // The official client's session goes on, on the two replicas left.
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    const result = await client.callTool({ name: 'search_tickets', arguments: { query: 'vpn' } });
    expect(result.isError).toBeFalsy();
  });
});
