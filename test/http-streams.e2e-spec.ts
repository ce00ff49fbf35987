import { RunningServer, startDeskHttp } from './support/server-process';
import { SseReader, authorize, call, get, messageOf, openSession, post, sleep } from './support/raw-mcp-http';
import { rpcError, rpcResult } from './support/rpc-matchers';

/** Streamable HTTP (2025-11-25) by hand: the GET stream, SSE answers and their resumption. */
describe('Streamable HTTP streams, by hand', () => {
  const V = '2025-11-25';
  let server: RunningServer;
  let url: string;
  let sid: string;

  beforeAll(async () => {
    server = await startDeskHttp();
    url = server.url;
    authorize(server);
    sid = await openSession(url, V);
  });
  afterAll(async () => {
    await server.stop();
  });

  describe('GET stream', () => {
    it('opens an SSE stream that starts with a priming event; a second GET gets 409 until the first closes', async () => {
      const session = await openSession(url, V);
      const ctrl = new AbortController();
      const res = await get(url, session, { 'mcp-protocol-version': V }, ctrl.signal);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      expect(res.headers.get('mcp-session-id')).toBe(session);
      const priming = await new SseReader(res).next();
      expect(priming).toEqual({ id: expect.stringMatching(/\S/), data: '', retry: 1000 });

      const second = await get(url, session);
      expect(second.status).toBe(409);
      expect(await second.json()).toEqual(rpcError(null, -32600, /Conflict/));

      ctrl.abort();
      let again = await get(url, session);
      for (let i = 0; again.status === 409 && i < 50; i++) {
        await again.body?.cancel();
        await sleep(20);
        again = await get(url, session);
      }
      expect(again.status).toBe(200);
      await again.body?.cancel();
    });

    it('keeps a GET stream while its connection is down: a resume replays what was missed and stays live', async () => {
      const session = await openSession(url, V);
      const closeTicket = async (id: string) => {
        const uri = `desk://tickets/${id}`;
        await call(url, session, { jsonrpc: '2.0', id: `s-${id}`, method: 'resources/subscribe', params: { uri } }, V);
        const closed = await call(
          url,
          session,
          {
            jsonrpc: '2.0',
            id: `c-${id}`,
            method: 'tools/call',
            params: { name: 'close_ticket', arguments: { id, resolution: 'Fixed' } },
          },
          V,
        );
        expect(closed.json.result.structuredContent).toMatchObject({ id, status: 'closed' });
        return { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } };
      };
      const ctrl = new AbortController();
      const priming = (await new SseReader(await get(url, session, {}, ctrl.signal)).next())!;
      ctrl.abort();
      await sleep(100); // the server sees the connection go
      const missed = await closeTicket('HD-20');
      const resumed = await get(url, session, { 'last-event-id': priming.id! });
      expect(resumed.status).toBe(200);
      const stream = new SseReader(resumed);
      expect(messageOf((await stream.next())!)).toEqual(missed);
      const live = await closeTicket('HD-21');
      expect(messageOf((await stream.next())!)).toEqual(live);
      expect((await get(url, session)).status).toBe(409); // the resumed connection is the session's GET stream
      await stream.cancel();
    });

    it('requires a session (400), a known one (404) and Accept: text/event-stream (406)', async () => {
      const none = await get(url, undefined);
      expect(none.status).toBe(400);
      expect(await none.json()).toEqual(rpcError(null, -32600, /Mcp-Session-Id/));
      expect((await get(url, 'not-a-session')).status).toBe(404);
      expect((await get(url, sid, { accept: 'application/json' })).status).toBe(406);
    });
  });

  describe('a streamed call and its resumption', () => {
    const exportCall = (id: string) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'export_tickets', arguments: {}, _meta: { progressToken: `p-${id}` } },
    });

    it('answers a call with progress as SSE: priming, progress events, then the response with the request id', async () => {
      const res = await post(url, exportCall('exp-1'), { sessionId: sid, protocolVersion: V });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      expect(res.headers.get('mcp-session-id')).toBe(sid);
      const [priming, ...events] = await new SseReader(res).rest();
      expect(priming).toMatchObject({ data: '', retry: 1000 });
      const messages = events.map(messageOf);
      const progress = messages.filter((m) => m.method === 'notifications/progress').map((m) => m.params);
      expect(progress.map((p) => p.progress)).toEqual([5, 10, 15, 20, 25]);
      expect(progress.every((p) => p.progressToken === 'p-exp-1' && p.total === 25)).toBe(true);
      const last = messages[messages.length - 1];
      expect(last).toMatchObject({ jsonrpc: '2.0', id: 'exp-1', result: { content: [{ type: 'text' }] } });
      expect(last.result.content[0].text.split('\n')).toHaveLength(26);
      expect(events.every((e) => e.event === 'message' && e.id)).toBe(true);
      expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    });

    it('resumes with Last-Event-ID after a dropped connection and delivers the rest exactly once', async () => {
      const ctrl = new AbortController();
      const res = await post(url, exportCall('exp-2'), { sessionId: sid, protocolVersion: V, signal: ctrl.signal });
      const reader = new SseReader(res);
      const seen = [await reader.next(), await reader.next()];
      expect(seen[0]!.data).toBe('');
      expect(messageOf(seen[1]!)).toMatchObject({ method: 'notifications/progress', params: { progress: 5 } });
      ctrl.abort();

      const resumed = await get(url, sid, { 'last-event-id': seen[1]!.id!, 'mcp-protocol-version': V });
      expect(resumed.status).toBe(200);
      expect(resumed.headers.get('content-type')).toBe('text/event-stream');
      const rest = await new SseReader(resumed).rest();
      const messages = rest.map(messageOf);
      expect(messages.filter((m) => m.method === 'notifications/progress').map((m) => m.params.progress)).toEqual([
        10, 15, 20, 25,
      ]);
      expect(messages[messages.length - 1]).toMatchObject({
        jsonrpc: '2.0',
        id: 'exp-2',
        result: { content: [{ type: 'text' }] },
      });
      expect(messages.filter((m) => 'id' in m)).toHaveLength(1);
      expect(rest.map((e) => e.id)).not.toContain(seen[1]!.id);

      // The stream is complete: resuming from its last event replays nothing and ends at once.
      const after = await get(url, sid, { 'last-event-id': rest[rest.length - 1].id! });
      expect(after.status).toBe(200);
      expect(await new SseReader(after).rest()).toEqual([]);
    });

    it('moves a stream to the resuming connection and closes the one it left, even if still open', async () => {
      const res = await post(url, exportCall('exp-4'), { sessionId: sid, protocolVersion: V });
      const original = new SseReader(res);
      await original.next(); // priming
      const firstProgress = (await original.next())!;
      const resumed = new SseReader(await get(url, sid, { 'last-event-id': firstProgress.id! }));
      const [leftBehind, rest] = await Promise.all([original.rest(3_000), resumed.rest(3_000)]);
      expect(rest.map(messageOf).pop()).toMatchObject({ id: 'exp-4', result: {} });
      expect(
        rest
          .map(messageOf)
          .filter((m) => m.method === 'notifications/progress')
          .map((m) => m.params.progress),
      ).toEqual([10, 15, 20, 25]);
      // The old connection ended (rest() returned) without the response, which only the new one carries.
      expect(leftBehind.map(messageOf).filter((m) => 'id' in m)).toEqual([]);
    });

    it('ends the stream of a call cancelled with notifications/cancelled, without a response', async () => {
      const res = await post(url, exportCall('exp-5'), { sessionId: sid, protocolVersion: V });
      const stream = new SseReader(res);
      await stream.next(); // priming
      const cancel = await post(
        url,
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'exp-5', reason: 'user gave up' } },
        { sessionId: sid, protocolVersion: V },
      );
      expect(cancel.status).toBe(202);
      expect(await cancel.text()).toBe('');
      const rest = (await stream.rest()).map(messageOf);
      expect(rest.filter((m) => 'id' in m)).toEqual([]);
      expect(rest.filter((m) => m.method === 'notifications/progress').length).toBeLessThan(5);
      expect((await call(url, sid, { jsonrpc: '2.0', id: 'exp-5', method: 'ping' }, V)).json).toEqual(
        rpcResult('exp-5', {}),
      );
    });

    it('refuses an unknown Last-Event-ID, or one of another session, with 404', async () => {
      const unknown = await get(url, sid, { 'last-event-id': 'no-such-stream_3' });
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual(rpcError(null, -32600, /Last-Event-ID/));
      const res = await post(url, exportCall('exp-3'), { sessionId: sid, protocolVersion: V });
      const first = (await new SseReader(res).rest())[1];
      const other = await openSession(url, V);
      expect((await get(url, other, { 'last-event-id': first.id! })).status).toBe(404);
    });
  });
});
