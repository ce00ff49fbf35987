import { bearer, RunningServer, startDeskHttp, startAuthorizedDesk } from './support/server-process';
import {
  SseReader,
  authorize,
  call,
  get,
  headerFor,
  initialize,
  initializeRequest,
  messageOf,
  openSession,
  post,
  sleep,
} from './support/raw-mcp-http';
import { DESK_CAPABILITIES, rpcError, rpcResult } from './support/rpc-matchers';

const VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

/** Lifecycle, version negotiation and what differs between protocol revisions, by hand over Streamable HTTP. */
describe('protocol revisions over Streamable HTTP, by hand', () => {
  let server: RunningServer;
  let url: string;
  beforeAll(async () => void ({ url } = server = await startAuthorizedDesk()));
  afterAll(() => server.stop());

  describe('initialize', () => {
    it.each(VERSIONS)(
      'answers a client asking for %s with that same version, a session and every capability',
      async (version) => {
        const { response, body, sessionId } = await initialize(url, version);
        expect(response.headers.get('content-type')).toBe('application/json');
        expect(sessionId).toMatch(/^[\x21-\x7e]{16,128}$/);
        expect(body).toEqual(
          rpcResult(1, {
            protocolVersion: version,
            capabilities: DESK_CAPABILITIES,
            // Implementation.description exists from 2025-11-25 on; older revisions do not get it.
            serverInfo: {
              name: 'desk',
              version: '0.1.0',
              title: 'Desk',
              ...(version >= '2025-11-25' ? { description: expect.stringContaining('desk') } : {}),
            },
            instructions: expect.stringContaining('Desk tickets'),
          }),
        );
      },
    );

    it.each(['1999-01-01', '2026-01-01', 'latest'])(
      'answers an unknown version (%s) with the latest one, 2025-11-25',
      async (version) => {
        const { body, sessionId } = await initialize(url, version);
        expect(body.result.protocolVersion).toBe('2025-11-25');
        expect(sessionId).toBeTruthy();
      },
    );

    it('gives every initialize its own session', async () => {
      const ids = await Promise.all([1, 2, 3].map(async () => (await initialize(url, '2025-11-25')).sessionId));
      expect(new Set(ids).size).toBe(3);
    });

    it.each([
      ['no protocolVersion', { capabilities: {}, clientInfo: { name: 'x', version: '1' } }, 'protocolVersion'],
      ['a numeric protocolVersion', { protocolVersion: 20251125, capabilities: {} }, 'protocolVersion'],
      ['array capabilities', { protocolVersion: '2025-11-25', capabilities: [] }, 'capabilities'],
    ])('refuses initialize with %s: 400, -32602 with the request id, and no session', async (_what, params, field) => {
      const res = await post(url, { jsonrpc: '2.0', id: 'init-1', method: 'initialize', params });
      expect(res.status).toBe(400);
      expect(res.headers.get('mcp-session-id')).toBeNull();
      const body = (await res.json()) as { error: { data?: unknown } };
      expect(body).toEqual(rpcError('init-1', -32602, /Invalid params/));
      expect(body.error.data).toMatchObject({ field });
    });

    it('refuses initialize that carries an Mcp-Session-Id (400, no new session)', async () => {
      const { sessionId } = await initialize(url, '2025-11-25');
      const res = await post(url, initializeRequest('2025-11-25'), { sessionId });
      expect(res.status).toBe(400);
      expect(res.headers.get('mcp-session-id')).toBeNull();
      expect(await res.json()).toEqual(rpcError(1, -32600, /initialize/));
    });
  });

  describe('session end (DELETE)', () => {
    it('DELETE ends the session with 200 and closes its GET stream; then the id gets 404', async () => {
      const session = await openSession(url, '2025-11-25');
      const stream = new SseReader(await get(url, session));
      await stream.next(); // priming
      const del = await fetch(url, { method: 'DELETE', headers: { ...bearer(server), 'mcp-session-id': session } });
      expect(del.status).toBe(200);
      expect(await stream.rest()).toEqual([]);
      const after = await post(
        url,
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { sessionId: session, protocolVersion: '2025-11-25' },
      );
      expect(after.status).toBe(404);
      expect(
        (await fetch(url, { method: 'DELETE', headers: { ...bearer(server), 'mcp-session-id': session } })).status,
      ).toBe(404);
      expect((await fetch(url, { method: 'DELETE', headers: bearer(server) })).status).toBe(400);
    });
  });

  describe('SSE by revision: priming events only from 2025-11-25', () => {
    it.each(['2025-06-18', '2025-03-26'])(
      'streams a %s call with progress without a priming event or retry',
      async (version) => {
        const sid = await openSession(url, version);
        const res = await post(
          url,
          {
            jsonrpc: '2.0',
            id: 99,
            method: 'tools/call',
            params: { name: 'export_tickets', _meta: { progressToken: 99 } },
          },
          { sessionId: sid, protocolVersion: headerFor(version) },
        );
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('text/event-stream');
        const events = await new SseReader(res).rest();
        expect(events.every((e) => e.data !== '' && e.retry === undefined && e.id && e.event === 'message')).toBe(true);
        const messages = events.map(messageOf);
        expect(messages[0]).toEqual({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 99, progress: 5, total: 25, message: 'exported 5 tickets' },
        });
        expect(messages[messages.length - 1]).toMatchObject({
          jsonrpc: '2.0',
          id: 99,
          result: { content: [{ type: 'text' }] },
        });
      },
    );

    it.each([
      ['2025-11-25', 'HD-11', true],
      ['2025-06-18', 'HD-12', false],
    ])('delivers resource updates on a %s GET stream (priming first: %s)', async (version, ticket, primed) => {
      const sid = await openSession(url, version);
      const header = headerFor(version);
      const stream = new SseReader(await get(url, sid, header ? { 'mcp-protocol-version': header } : {}));
      if (primed) expect(await stream.next()).toMatchObject({ data: '', retry: 1000 });
      const uri = `desk://tickets/${ticket}`;
      expect(
        (await call(url, sid, { jsonrpc: '2.0', id: 1, method: 'resources/subscribe', params: { uri } }, header)).json,
      ).toEqual(rpcResult(1, {}));
      // The client declared no elicitation, so the tool closes without asking; its answer is plain JSON.
      const closed = await call(
        url,
        sid,
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'close_ticket', arguments: { id: ticket, resolution: 'Replaced it' } },
        },
        header,
      );
      expect(closed.headers.get('content-type')).toBe('application/json');
      expect(closed.json.result.structuredContent).toMatchObject({ id: ticket, status: 'closed' });
      const update = (await stream.next())!;
      expect(update.id).toBeTruthy();
      expect(messageOf(update)).toEqual({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } });
      await stream.cancel();
    });
  });
});

describe('Streamable HTTP session idle expiry', () => {
  /** Long enough that a loaded machine's pauses between the active session's pings stay far inside it. */
  const IDLE_MS = 3_000;
  let server: RunningServer;
  beforeAll(async () => {
    server = await startDeskHttp({ MCP_SESSION_IDLE_TIMEOUT_MS: String(IDLE_MS) });
    authorize(server);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('forgets a session idle for longer than MCP_SESSION_IDLE_TIMEOUT_MS (404) but keeps an active one', async () => {
    const idle = (await initialize(server.url, '2025-11-25')).sessionId;
    const idleSince = Date.now();
    const active = (await initialize(server.url, '2025-11-25')).sessionId;
    // The active session is used every 250 ms until the idle one has been idle for the timeout and a half.
    for (let i = 0; Date.now() - idleSince < IDLE_MS * 1.5; i++) {
      await sleep(250);
      expect((await call(server.url, active, { jsonrpc: '2.0', id: i, method: 'ping' })).status).toBe(200);
    }
    const expired = await call(server.url, idle, { jsonrpc: '2.0', id: 'late', method: 'ping' });
    expect(expired.status).toBe(404);
    expect(expired.json).toEqual(rpcError('late', -32600, /session/));
    expect((await call(server.url, active, { jsonrpc: '2.0', id: 'still', method: 'ping' })).json).toEqual(
      rpcResult('still', {}),
    );
  });
});
