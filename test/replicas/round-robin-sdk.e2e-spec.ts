import { RunningServer } from '../support/server-process';
import { startReplicas, stopReplicas, suiteRedis } from '../support/replicas';
import { mcpPost } from '../support/mcp-post';
import { readEventIds, resumeStream } from '../support/sse-resume';
import { TestIssuer } from '../support/test-issuer';
import { RoundRobinProxy, startRoundRobinProxy } from '../support/round-robin-proxy';
import { ConnectSdk, SdkSession, connectSdk1, connectSdk2 } from '../support/sdk-sessions';
import { answerRoutes, callRoutes, lastRoute, streamHolder, toolCalls } from '../support/replica-proof';
import { firstText, sleep, waitFor } from '../support/wait';

/**
 * Three desk replicas on the machine's Redis behind a round-robin proxy with no session affinity, driven by the
 * official 1.x and 2.x clients through whole sessions. Consecutive requests of one session land on different
 * replicas; each test reads the proxy's log to show that the request it is about did cross replicas (a client's
 * answer, a cancellation, an update) rather than trusting round-robin to have done it. The last test kills the
 * replica holding a stream and resumes it through the proxy.
 */
describe('one session across three replicas behind a round-robin proxy (official clients 1.x and 2.x)', () => {
  const { prefix, cleanup } = suiteRedis();
  let issuer: TestIssuer;
  let replicas: RunningServer[];
  let proxy: RoundRobinProxy;
  const endpoint = () => new URL('/mcp', proxy.origin);

  beforeAll(async () => {
    issuer = await TestIssuer.start();
    replicas = await startReplicas(3, { ...issuer.env(), MCP_STORE: 'redis', MCP_REDIS_PREFIX: prefix });
    proxy = await startRoundRobinProxy(replicas.map((r) => new URL(r.url).origin));
  });
  afterAll(async () => {
    await proxy?.close();
    await stopReplicas(replicas ?? []);
    await issuer?.close();
    await cleanup();
  });

  // Each replica keeps its own tickets (the fixture's data is per process): each client closes tickets of its own.
  describe.each<[string, ConnectSdk, { elicit: string; update: string }]>([
    ['1.x', connectSdk1, { elicit: 'HD-2', update: 'HD-3' }],
    ['2.x', connectSdk2, { elicit: 'HD-5', update: 'HD-6' }],
  ])('official client %s', (_, connect, tickets) => {
    let s: SdkSession;
    beforeEach(async () => {
      s = await connect(endpoint(), await issuer.mint({ sub: 'alice' }));
    });
    afterEach(() => s.close());

    it('lists and calls, one session served by all three replicas in turn', async () => {
      expect(await s.listTools()).toEqual(
        expect.arrayContaining(['search_tickets', 'close_ticket', 'export_tickets', 'draft_reply']),
      );
      for (let i = 0; i < 6; i++) {
        const result = await s.call('search_tickets', { query: 'vpn' });
        expect(result.isError).toBeFalsy();
        expect((result.structuredContent as { tickets: unknown[] }).tickets.length).toBeGreaterThan(0);
      }
      expect(new Set(callRoutes(proxy, s.sessionId, 'search_tickets'))).toEqual(new Set([0, 1, 2]));
    });

    it('reports the progress of a call to the client', async () => {
      const progress: { progress: number; total?: number }[] = [];
      const result = await s.call('export_tickets', {}, { onprogress: (p) => void progress.push(p) });
      expect(result.isError).toBeFalsy();
      expect(firstText(result).split('\n')).toHaveLength(26); // a header and the 25 tickets
      // One report per batch of five, in order, each with the total.
      expect(progress).toEqual(
        [5, 10, 15, 20, 25].map((n) => ({ progress: n, total: 25, message: expect.any(String) })),
      );
    });

    it('answers elicitation and sampling on a replica other than the one running the call', async () => {
      const draft = await s.call('draft_reply', { id: 'HD-4' });
      expect(firstText(draft)).toBe('Dear requester');
      const closed = await s.call('close_ticket', { id: tickets.elicit, resolution: 'done' });
      expect(closed.structuredContent).toMatchObject({ id: tickets.elicit, status: 'closed' });
      expect(s.answered).toEqual(['sampling/createMessage', 'elicitation/create']);
      // Each answer reached a replica that does not run the call: it went over the message bus.
      const routes = answerRoutes(proxy, s.sessionId);
      expect(routes.map((r) => r.tool)).toEqual(['draft_reply', 'close_ticket']);
      for (const r of routes) expect(r.answer).not.toBe(r.call);
      // Whichever replicas asked, each from its own copy of the session, the ids differ (MCP requires a session's
      // request ids to be unique; a late bus echo of the first answer must not resolve the second).
      expect(new Set(s.answeredIds).size).toBe(2);
    });

    it('delivers a resource update from the replica that ran the change to the one holding the GET stream', async () => {
      const uri = `desk://tickets/${tickets.update}`;
      await s.subscribe(uri);
      const holder = await streamHolder(proxy, s.sessionId);
      // A replica notifies once, when its own copy of the ticket closes: close until one without the stream has.
      const closers = () => new Set(callRoutes(proxy, s.sessionId, 'close_ticket'));
      for (let i = 0; i < 6 && [...closers()].every((u) => u === holder); i++) {
        const closed = await s.call('close_ticket', { id: tickets.update, resolution: 'done' });
        expect(closed.structuredContent).toMatchObject({ id: tickets.update, status: 'closed' });
      }
      expect([...closers()].some((u) => u !== holder)).toBe(true);
      // One update per replica that closed it, the remote ones included, and no duplicate.
      await waitFor(() => s.updated.length >= closers().size, 5_000, 'the updates');
      await sleep(200);
      expect(s.updated).toEqual([...closers()].map(() => uri));
    });

    it('cancels a call running on another replica', async () => {
      const before = await toolCalls(replicas, 'export_tickets', 'cancelled');
      const controller = new AbortController();
      const call = s.call('export_tickets', {}, { signal: controller.signal });
      await sleep(300);
      controller.abort('changed my mind');
      await expect(call).rejects.toThrow();
      const ran = lastRoute(proxy, s.sessionId, 'tools/call');
      await waitFor(() => lastRoute(proxy, s.sessionId, 'notifications/cancelled') !== undefined, 2_000, 'cancel');
      expect(lastRoute(proxy, s.sessionId, 'notifications/cancelled')).not.toBe(ran);
      // The replica running the call stops it (the export takes a second when it is not cancelled).
      const until = Date.now() + 3_000;
      while ((await toolCalls(replicas, 'export_tickets', 'cancelled')) === before && Date.now() < until)
        await sleep(100);
      expect((await toolCalls(replicas, 'export_tickets', 'cancelled')) - before).toBe(1);
      expect(await s.ping()).toEqual({});
    });
  });

  it('resumes a stream with Last-Event-ID through the proxy after the replica holding it is killed; the session goes on', async () => {
    const token = await issuer.mint({ sub: 'alice' });
    const s = await connectSdk1(endpoint(), token);
    try {
      // A streamed call in the client's session: its progress events get ids and go to the shared event log.
      const call = { name: 'export_tickets', arguments: {}, _meta: { progressToken: 'p70' } };
      const res = await mcpPost(
        `${proxy.origin}/mcp`,
        { jsonrpc: '2.0', id: 70, method: 'tools/call', params: call },
        token,
        {
          'mcp-session-id': s.sessionId,
        },
      );
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const holder = proxy.log.find((e) => e.session === s.sessionId && e.id === 70)!.upstream!;
      const seen = await readEventIds(res, 3);
      expect(seen.length).toBeGreaterThanOrEqual(3);
      const killed = new Promise((r) => replicas[holder].process.once('exit', r));
      replicas[holder].process.kill('SIGKILL');
      await killed;

      // A replica left replays what came after the first event, from the shared log.
      const resumed = await resumeStream(`${proxy.origin}/mcp`, token, s.sessionId, seen[0]);
      expect(resumed.status).toBe(200);
      expect(resumed.ids.slice(0, 2)).toEqual(seen.slice(1, 3));
      expect(resumed.text).toContain('"method":"notifications/progress"');
      const resume = proxy.log.find((e) => e.session === s.sessionId && e.lastEventId === seen[0])!;
      expect(resume.upstream).not.toBe(holder);

      // The official client's session goes on, on the two replicas left.
      expect(await s.listTools()).toContain('search_tickets');
      for (let i = 0; i < 3; i++) expect((await s.call('search_tickets', { query: 'vpn' })).isError).toBeFalsy();
      // The proxy did meet the dead replica in its turn, and sent that request on to a live one.
      const skipped = proxy.log.filter((e) => e.tried[0] === holder && e.tried.length > 1);
      expect(skipped.length).toBeGreaterThan(0);
      expect(skipped.every((e) => e.status === 200 || e.status === 202)).toBe(true);
    } finally {
      await s.close();
    }
  });
});
