import { bearer, DESK_TOOLS, RunningServer, startDeskHttp } from './support/server-process';
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

  beforeAll(async () => {
    server = await startDeskHttp();
    url = server.url;
    authorize(server);
  });
  afterAll(async () => {
    await server.stop();
  });

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

  describe('JSON-RPC batches (2025-03-26 only)', () => {
    const batch = [
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 'b', method: 'tools/list' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ];

    it('answers a 2025-03-26 batch with an array of the responses, ids matched, notifications unanswered', async () => {
      const sid = await openSession(url, '2025-03-26');
      const res = await call(url, sid, batch);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.json).toHaveLength(2);
      const byId = new Map(res.json.map((r: { id: unknown }) => [r.id, r]));
      expect(byId.get(1)).toEqual(rpcResult(1, {}));
      expect(byId.get('b')).toMatchObject({ jsonrpc: '2.0', id: 'b', result: { tools: expect.any(Array) } });
      expect((byId.get('b') as { result: { tools: unknown[] } }).result.tools).toHaveLength(6);
    });

    it('answers each bad item of a batch on its own and refuses initialize inside a batch', async () => {
      const sid = await openSession(url, '2025-03-26');
      const res = await call(url, sid, [
        { jsonrpc: '2.0', id: 'i', method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {} } },
        { jsonrpc: '2.0', id: 'u', method: 'no/such' },
        42,
        { jsonrpc: '2.0', id: 'p', method: 'ping' },
      ]);
      expect(res.status).toBe(200);
      expect(res.json).toEqual(
        expect.arrayContaining([
          rpcError('i', -32600, /initialize/),
          rpcError('u', -32601),
          rpcError(null, -32600),
          rpcResult('p', {}),
        ]),
      );
      expect(res.json).toHaveLength(4);
    });

    it('accepts a batch of only notifications or only responses with 202 and no body', async () => {
      const sid = await openSession(url, '2025-03-26');
      for (const body of [
        [
          { jsonrpc: '2.0', method: 'notifications/initialized' },
          { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
        ],
        [
          { jsonrpc: '2.0', id: 'srv-1', result: {} },
          { jsonrpc: '2.0', id: 'srv-2', result: {} },
        ],
      ]) {
        const res = await post(url, body, { sessionId: sid });
        expect(res.status).toBe(202);
        expect(await res.text()).toBe('');
      }
    });

    it('refuses an empty batch with 400 and -32600', async () => {
      const sid = await openSession(url, '2025-03-26');
      const res = await call(url, sid, []);
      expect(res.status).toBe(400);
      expect(res.json).toEqual(rpcError(null, -32600, /empty batch/));
    });

    it.each(['2025-11-25', '2025-06-18', '2024-11-05'])(
      'refuses the same batch in a %s session with 400 and one -32600 error',
      async (version) => {
        const sid = await openSession(url, version);
        const res = await call(url, sid, batch, headerFor(version));
        expect(res.status).toBe(400);
        expect(res.json).toEqual(
          rpcError(null, -32600, new RegExp(`batches are not supported in protocol ${version}`)),
        );
      },
    );
  });

  it('serves a 2024-11-05 client flow written by hand (no MCP-Protocol-Version header)', async () => {
    const { sessionId: sid, body } = await initialize(url, '2024-11-05');
    expect(body.result.protocolVersion).toBe('2024-11-05');
    const initialized = await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { sessionId: sid });
    expect(initialized.status).toBe(202);

    const tools = await call(url, sid, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(tools.json.id).toBe(2);
    expect(tools.json.result.tools.map((t: { name: string }) => t.name)).toEqual(DESK_TOOLS);
    expect(
      tools.json.result.tools.every((t: { inputSchema?: { type?: string } }) => t.inputSchema?.type === 'object'),
    ).toBe(true);
    // Only the fields 2024-11-05 defines: no title, outputSchema, annotations, icons or _meta.
    for (const t of tools.json.result.tools)
      expect(Object.keys(t).sort()).toEqual(['description', 'inputSchema', 'name']);

    const search = await call(url, sid, {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'search_tickets', arguments: { query: 'vpn', limit: 2 } },
    });
    expect(search.status).toBe(200);
    expect(search.json).toMatchObject({ jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text' }] } });
    expect(search.json.result.isError).toBeFalsy();
    expect(search.json.result.structuredContent).toBeUndefined();
    const found = JSON.parse(search.json.result.content[0].text);
    expect(found).toMatchObject({ count: 2, truncated: true });
    expect(found.tickets.map((t: { id: string }) => t.id)).toEqual(['HD-1', 'HD-6']);

    const prompt = await call(url, sid, {
      jsonrpc: '2.0',
      id: 4,
      method: 'prompts/get',
      params: { name: 'triage_ticket', arguments: { ticketId: 'HD-2' } },
    });
    expect(prompt.json).toMatchObject({ jsonrpc: '2.0', id: 4, result: { messages: expect.any(Array) } });
    expect(prompt.json.result.messages[0]).toMatchObject({ role: 'user', content: { type: 'text' } });
    expect(prompt.json.result.messages[0].content.text).toContain('Triage desk ticket HD-2');
    expect(prompt.json.result.messages[0].content.text).toContain('friendly tone');
    // resource_link (2025-06-18) reaches a 2024-11-05 client as text.
    expect(prompt.json.result.messages[1].content).toEqual({ type: 'text', text: 'HD-2: desk://tickets/HD-2' });

    const categories = await call(url, sid, {
      jsonrpc: '2.0',
      id: 5,
      method: 'resources/read',
      params: { uri: 'desk://catalog/categories' },
    });
    expect(categories.json).toMatchObject({
      jsonrpc: '2.0',
      id: 5,
      result: { contents: [{ uri: 'desk://catalog/categories', mimeType: 'application/json' }] },
    });
    expect(JSON.parse(categories.json.result.contents[0].text).categories).toEqual([
      'access',
      'hardware',
      'network',
      'software',
      'billing',
    ]);

    expect((await call(url, sid, { jsonrpc: '2.0', id: 6, method: 'ping' })).json).toEqual(rpcResult(6, {}));
  });

  it('gives each revision the tool fields it defines', async () => {
    const fieldsOf = async (version: string) => {
      const sid = await openSession(url, version);
      const res = await call(url, sid, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, headerFor(version));
      return res.json.result.tools.find((t: { name: string }) => t.name === 'search_tickets') as Record<
        string,
        unknown
      >;
    };
    expect(Object.keys(await fieldsOf('2025-11-25'))).toEqual(
      expect.arrayContaining(['title', 'outputSchema', 'annotations']),
    );
    expect(Object.keys(await fieldsOf('2025-06-18'))).toEqual(
      expect.arrayContaining(['title', 'outputSchema', 'annotations']),
    );
    expect(Object.keys(await fieldsOf('2025-03-26')).sort()).toEqual([
      'annotations',
      'description',
      'inputSchema',
      'name',
    ]);
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
  let server: RunningServer;
  beforeAll(async () => {
    server = await startDeskHttp({ MCP_SESSION_IDLE_TIMEOUT_MS: '1500' });
    authorize(server);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('forgets a session idle for longer than MCP_SESSION_IDLE_TIMEOUT_MS (404) but keeps an active one', async () => {
    const idle = (await initialize(server.url, '2025-11-25')).sessionId;
    const active = (await initialize(server.url, '2025-11-25')).sessionId;
    for (let i = 0; i < 5; i++) {
      await sleep(500);
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
