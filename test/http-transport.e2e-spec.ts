import { RunningServer, bearer, startHelpdeskHttp } from './support/server-process';
import { ACCEPT_BOTH, SseReader, authorize, call, get, initializeRequest, messageOf, openSession, post, rawRequest, sleep } from './support/raw-mcp-http';
import { rpcError, rpcResult } from './support/rpc-matchers';

/** Streamable HTTP (2025-11-25) driven with plain fetch and hand-written JSON-RPC: statuses, headers, bodies. */
describe('Streamable HTTP transport, by hand', () => {
  const V = '2025-11-25';
  let server: RunningServer;
  let url: string;
  let sid: string;

  beforeAll(async () => {
    server = await startHelpdeskHttp();
    url = server.url;
    authorize(server);
    sid = await openSession(url, V);
  });
  afterAll(async () => {
    await server.stop();
  });

  const inSession = (message: unknown, version: string | undefined = V) => call(url, sid, message, version);

  describe('POST framing', () => {
    it('refuses a Content-Type other than application/json with 415 (parameters are fine)', async () => {
      const res = await post(url, { jsonrpc: '2.0', id: 1, method: 'ping' }, { sessionId: sid, headers: { 'content-type': 'text/plain' } });
      expect(res.status).toBe(415);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(await res.json()).toEqual(rpcError(null, -32600, /Content-Type/));
      const charset = await post(url, { jsonrpc: '2.0', id: 1, method: 'ping' }, { sessionId: sid, headers: { 'content-type': 'application/json; charset=utf-8' } });
      expect(await charset.json()).toEqual(rpcResult(1, {}));
    });

    it.each([['application/json'], ['text/event-stream'], ['']])('refuses Accept %j (not both types) with 406', async (accept) => {
      const res = await post(url, { jsonrpc: '2.0', id: 1, method: 'ping' }, { sessionId: sid, headers: { accept } });
      expect(res.status).toBe(406);
      expect(await res.json()).toEqual(rpcError(null, -32600, /Not Acceptable/));
    });

    it('answers malformed JSON with 400 and a -32700 parse error whose id is null', async () => {
      const res = await post(url, '{"jsonrpc":"2.0","id":1,"method":', { sessionId: sid });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(await res.json()).toEqual(rpcError(null, -32700, /Parse error/));
    });

    it.each([
      ['an object without jsonrpc', { hello: 'world' }, null],
      ['a bare string', 'just text', null],
      ['jsonrpc 1.0', { jsonrpc: '1.0', method: 'ping' }, null],
      ['an id with neither method nor result', { jsonrpc: '2.0', id: 'x-1' }, 'x-1'],
      ['a non-string method', { jsonrpc: '2.0', id: 8, method: 42 }, 8],
    ])('answers %s with 400 and -32600', async (_what, body, id) => {
      const res = await post(url, JSON.stringify(body), { sessionId: sid });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual(rpcError(id, -32600, /Invalid Request/));
    });

    it('refuses a body over the 1 MiB limit with 413 and -32005', async () => {
      const res = await post(url, { jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(1_100_000) } }, { sessionId: sid });
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual(rpcError(null, -32005, /Payload too large/));
    });

    it('requires Mcp-Session-Id after initialize (400) and refuses an unknown one (404)', async () => {
      const missing = await post(url, { jsonrpc: '2.0', id: 1, method: 'ping' });
      expect(missing.status).toBe(400);
      expect(missing.headers.get('mcp-session-id')).toBeNull();
      expect(await missing.json()).toEqual(rpcError(null, -32600, /Mcp-Session-Id/));
      const unknown = await post(url, { jsonrpc: '2.0', id: 1, method: 'ping' }, { sessionId: '00000000-0000-4000-8000-000000000000' });
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual(rpcError(null, -32600, /session/));
    });

    it('refuses an unsupported MCP-Protocol-Version (400); another supported one is accepted, as the official suite expects', async () => {
      const unsupported = await inSession({ jsonrpc: '2.0', id: 1, method: 'ping' }, '1999-01-01');
      expect(unsupported.status).toBe(400);
      expect(unsupported.json).toEqual(rpcError(null, -32600, /MCP-Protocol-Version/));
      const other = await inSession({ jsonrpc: '2.0', id: 1, method: 'ping' }, '2025-03-26');
      expect(other.status).toBe(200);
      expect(other.json).toEqual(rpcResult(1, {}));
      // Without the header the negotiated version applies.
      expect((await inSession({ jsonrpc: '2.0', id: 2, method: 'ping' }, undefined)).json).toEqual(rpcResult(2, {}));
    });

    it('accepts a notification with 202 and an empty body', async () => {
      const res = await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { sessionId: sid, protocolVersion: V });
      expect(res.status).toBe(202);
      expect(res.headers.get('content-type')).toBeNull();
      expect(await res.text()).toBe('');
    });

    it('accepts a JSON-RPC response (to no pending request) with 202 and an empty body', async () => {
      for (const response of [{ jsonrpc: '2.0', id: 'srv-77', result: {} }, { jsonrpc: '2.0', id: 'srv-78', error: { code: -1, message: 'no' } }]) {
        const res = await post(url, response, { sessionId: sid, protocolVersion: V });
        expect(res.status).toBe(202);
        expect(await res.text()).toBe('');
      }
    });

    it('answers an unknown method with -32601 and the request id (HTTP 400 under the corporate profile: never 404 with a session)', async () => {
      const res = await inSession({ jsonrpc: '2.0', id: 'm-1', method: 'tools/explode' });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.headers.get('mcp-session-id')).toBe(sid);
      expect(res.json).toEqual(rpcError('m-1', -32601, 'Method not found'));
    });

    it.each([['abc-123'], [''], [42], [0], [-7]])('echoes the request id %j exactly (ping answers {})', async (id) => {
      const res = await inSession({ jsonrpc: '2.0', id, method: 'ping' });
      expect(res.status).toBe(200);
      expect(res.text).toBe(JSON.stringify({ jsonrpc: '2.0', id, result: {} }));
    });

    it('never answers notifications, not even ones named like requests, on the POST or the GET stream', async () => {
      const ctrl = new AbortController();
      const stream = new SseReader(await get(url, sid, { 'mcp-protocol-version': V }, ctrl.signal));
      expect((await stream.next())!.data).toBe(''); // the priming event
      for (const method of ['ping', 'tools/list', 'no/such/method', 'notifications/cancelled']) {
        const res = await post(url, { jsonrpc: '2.0', method, params: { requestId: 'nothing-running' } }, { sessionId: sid, protocolVersion: V });
        expect(res.status).toBe(202);
        expect(await res.text()).toBe('');
      }
      expect(await stream.quietFor(300)).toBe(true);
      ctrl.abort();
    });

    it.each([
      ['a missing name', { arguments: {} }, 'name'],
      ['a numeric name', { name: 7 }, 'name'],
      ['array arguments', { name: 'search_tickets', arguments: ['vpn'] }, 'arguments'],
      ['string arguments', { name: 'search_tickets', arguments: 'vpn' }, 'arguments'],
      ['null arguments', { name: 'search_tickets', arguments: null }, 'arguments'],
    ])('answers tools/call with %s with -32602', async (_what, params, field) => {
      const res = await inSession({ jsonrpc: '2.0', id: 'bad-call', method: 'tools/call', params });
      expect(res.status).toBe(400); // Appendix B: -32602 is HTTP 400
      expect(res.json).toEqual(rpcError('bad-call', -32602, /Invalid params/));
      expect(res.json.error.data).toMatchObject({ field });
    });
  });

  describe('authentication', () => {
    it('answers POST, GET and DELETE without a token with 401 and a Bearer challenge; the session survives', async () => {
      const noToken: [string, RequestInit][] = [
        ['POST initialize', { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH }, body: JSON.stringify(initializeRequest(V)) }],
        ['POST in a session', { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, 'mcp-session-id': sid }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' }],
        ['GET', { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': sid } }],
        ['DELETE', { method: 'DELETE', headers: { 'mcp-session-id': sid } }],
      ];
      for (const [what, init] of noToken) {
        const res = await fetch(url, init);
        expect({ what, status: res.status }).toEqual({ what, status: 401 });
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="helpdesk"/);
        expect(res.headers.get('mcp-session-id')).toBeNull();
        expect(await res.json()).toEqual(rpcError(null, -32001, /Unauthorized/));
      }
      expect((await inSession({ jsonrpc: '2.0', id: 'after-401', method: 'ping' })).json).toEqual(rpcResult('after-401', {}));
    });
  });

  describe('Origin and Host (DNS rebinding protection)', () => {
    it('refuses a foreign Origin with 403 on POST, GET and DELETE; the session survives', async () => {
      const origin = { origin: 'http://evil.example.com' };
      const posted = await post(url, { jsonrpc: '2.0', id: 1, method: 'ping' }, { sessionId: sid, headers: origin });
      expect(posted.status).toBe(403);
      expect(await posted.json()).toEqual(rpcError(null, -32600, /Origin/));
      expect((await get(url, sid, origin)).status).toBe(403);
      expect((await fetch(url, { method: 'DELETE', headers: { ...bearer(server), ...origin, 'mcp-session-id': sid } })).status).toBe(403);
      expect((await inSession({ jsonrpc: '2.0', id: 2, method: 'ping' })).status).toBe(200);
    });

    it('refuses a foreign Host with 403', async () => {
      const body = JSON.stringify(initializeRequest(V));
      const res = await rawRequest(url, 'POST', { host: 'evil.example.com', 'content-type': 'application/json', accept: ACCEPT_BOTH }, body);
      expect(res.status).toBe(403);
      expect(res.headers['mcp-session-id']).toBeUndefined();
      expect(JSON.parse(res.text)).toEqual(rpcError(null, -32600, /Host/));
      const localhost = await rawRequest(url, 'POST', { host: `localhost:${new URL(url).port}`, 'content-type': 'application/json', accept: ACCEPT_BOTH }, body);
      expect(localhost.status).toBe(200);
    });

    it('accepts a loopback Origin on any port', async () => {
      const res = await post(url, { jsonrpc: '2.0', id: 3, method: 'ping' }, { sessionId: sid, headers: { origin: 'http://localhost:5173' } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(rpcResult(3, {}));
    });
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
      for (let i = 0; again.status === 409 && i < 50; i++) (await again.body?.cancel(), await sleep(20), (again = await get(url, session)));
      expect(again.status).toBe(200);
      await again.body?.cancel();
    });

    it('keeps a GET stream while its connection is down: a resume replays what was missed and stays live', async () => {
      const session = await openSession(url, V);
      const closeTicket = async (id: string) => {
        const uri = `helpdesk://tickets/${id}`;
        await call(url, session, { jsonrpc: '2.0', id: `s-${id}`, method: 'resources/subscribe', params: { uri } }, V);
        const closed = await call(url, session, { jsonrpc: '2.0', id: `c-${id}`, method: 'tools/call', params: { name: 'close_ticket', arguments: { id, resolution: 'Fixed' } } }, V);
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
    const exportCall = (id: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'export_tickets', arguments: {}, _meta: { progressToken: `p-${id}` } } });

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
      expect(messages.filter((m) => m.method === 'notifications/progress').map((m) => m.params.progress)).toEqual([10, 15, 20, 25]);
      expect(messages[messages.length - 1]).toMatchObject({ jsonrpc: '2.0', id: 'exp-2', result: { content: [{ type: 'text' }] } });
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
      expect(rest.map(messageOf).filter((m) => m.method === 'notifications/progress').map((m) => m.params.progress)).toEqual([10, 15, 20, 25]);
      // The old connection ended (rest() returned) without the response, which only the new one carries.
      expect(leftBehind.map(messageOf).filter((m) => 'id' in m)).toEqual([]);
    });

    it('ends the stream of a call cancelled with notifications/cancelled, without a response', async () => {
      const res = await post(url, exportCall('exp-5'), { sessionId: sid, protocolVersion: V });
      const stream = new SseReader(res);
      await stream.next(); // priming
      const cancel = await post(url, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'exp-5', reason: 'user gave up' } }, { sessionId: sid, protocolVersion: V });
      expect(cancel.status).toBe(202);
      expect(await cancel.text()).toBe('');
      const rest = (await stream.rest()).map(messageOf);
      expect(rest.filter((m) => 'id' in m)).toEqual([]);
      expect(rest.filter((m) => m.method === 'notifications/progress').length).toBeLessThan(5);
      expect((await call(url, sid, { jsonrpc: '2.0', id: 'exp-5', method: 'ping' }, V)).json).toEqual(rpcResult('exp-5', {}));
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

  it('puts the corporate risk level on the wire for close_ticket (raw tools/list)', async () => {
    const res = await inSession({ jsonrpc: '2.0', id: 'tl', method: 'tools/list' });
    expect(res.status).toBe(200);
    const close = res.json.result.tools.find((t: { name: string }) => t.name === 'close_ticket');
    expect(close.annotations).toMatchObject({ riskLevel: 'high', destructiveHint: true, readOnlyHint: false });
    expect(close._meta['corporate/tool-safety']).toMatchObject({ risk: 'high', audit: 'helpdesk.tool.close_ticket' });
  });
});
