import { RunningServer, startDeskHttp } from './support/server-process';
import {
  ACCEPT_BOTH,
  SseReader,
  authorize,
  call,
  get,
  initializeRequest,
  openSession,
  post,
} from './support/raw-mcp-http';
import { rpcError, rpcResult } from './support/rpc-matchers';

/** Streamable HTTP (2025-11-25) driven with plain fetch and hand-written JSON-RPC: statuses, headers, bodies. */
describe('Streamable HTTP transport, by hand', () => {
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

  const inSession = (message: unknown, version: string | undefined = V) => call(url, sid, message, version);

  it('serves on the adapter this run asks for, and says which when it starts listening', () => {
    // jest's e2e-fastify project sets MCP_HTTP_ADAPTER=fastify for every server it starts; e2e leaves the default.
    const adapter = process.env.MCP_HTTP_ADAPTER ?? 'express';
    expect(server.stderr()).toContain(`desk MCP server listening on ${url} (${adapter})\n`);
  });

  it('matches the endpoint as Express routes do: case-insensitively, a trailing slash ignored', async () => {
    for (const path of ['/MCP', '/mcp/'])
      expect(
        await (
          await post(new URL(path, url).href, { jsonrpc: '2.0', id: 1, method: 'ping' }, { sessionId: sid })
        ).json(),
      ).toEqual(rpcResult(1, {}));
  });

  describe('POST framing', () => {
    it('refuses a Content-Type other than application/json with 415 (parameters are fine)', async () => {
      const res = await post(
        url,
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { sessionId: sid, headers: { 'content-type': 'text/plain' } },
      );
      expect(res.status).toBe(415);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(await res.json()).toEqual(rpcError(null, -32600, /Content-Type/));
      const charset = await post(
        url,
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { sessionId: sid, headers: { 'content-type': 'application/json; charset=utf-8' } },
      );
      expect(await charset.json()).toEqual(rpcResult(1, {}));
    });

    it.each([['application/json'], ['text/event-stream'], ['']])(
      'refuses Accept %j (not both types) with 406',
      async (accept) => {
        const res = await post(url, { jsonrpc: '2.0', id: 1, method: 'ping' }, { sessionId: sid, headers: { accept } });
        expect(res.status).toBe(406);
        expect(await res.json()).toEqual(rpcError(null, -32600, /Not Acceptable/));
      },
    );

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
      const res = await post(
        url,
        { jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(1_100_000) } },
        { sessionId: sid },
      );
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual(rpcError(null, -32005, /Payload too large/));
    });

    it('requires Mcp-Session-Id after initialize (400) and refuses an unknown one (404)', async () => {
      const missing = await post(url, { jsonrpc: '2.0', id: 1, method: 'ping' });
      expect(missing.status).toBe(400);
      expect(missing.headers.get('mcp-session-id')).toBeNull();
      expect(await missing.json()).toEqual(rpcError(1, -32600, /Mcp-Session-Id/));
      const unknown = await post(
        url,
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { sessionId: '00000000-0000-4000-8000-000000000000' },
      );
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual(rpcError(1, -32600, /session/));
    });

    it('refuses an unsupported MCP-Protocol-Version (400); another supported one is accepted, as the official suite expects', async () => {
      const unsupported = await inSession({ jsonrpc: '2.0', id: 1, method: 'ping' }, '1999-01-01');
      expect(unsupported.status).toBe(400);
      expect(unsupported.json).toEqual(rpcError(1, -32600, /MCP-Protocol-Version/));
      const other = await inSession({ jsonrpc: '2.0', id: 1, method: 'ping' }, '2025-03-26');
      expect(other.status).toBe(200);
      expect(other.json).toEqual(rpcResult(1, {}));
      // Without the header the negotiated version applies.
      expect((await inSession({ jsonrpc: '2.0', id: 2, method: 'ping' }, undefined)).json).toEqual(rpcResult(2, {}));
    });

    it('accepts a notification with 202 and an empty body', async () => {
      const res = await post(
        url,
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { sessionId: sid, protocolVersion: V },
      );
      expect(res.status).toBe(202);
      expect(res.headers.get('content-type')).toBeNull();
      expect(await res.text()).toBe('');
    });

    it('accepts a JSON-RPC response (to no pending request) with 202 and an empty body', async () => {
      for (const response of [
        { jsonrpc: '2.0', id: 'srv-77', result: {} },
        { jsonrpc: '2.0', id: 'srv-78', error: { code: -1, message: 'no' } },
      ]) {
        const res = await post(url, response, { sessionId: sid, protocolVersion: V });
        expect(res.status).toBe(202);
        expect(await res.text()).toBe('');
      }
    });

    it('answers an unknown method with -32601 and the request id (HTTP 200 under the default spec profile)', async () => {
      const res = await inSession({ jsonrpc: '2.0', id: 'm-1', method: 'tools/explode' });
      expect(res.status).toBe(200);
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
        const res = await post(
          url,
          { jsonrpc: '2.0', method, params: { requestId: 'nothing-running' } },
          { sessionId: sid, protocolVersion: V },
        );
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
      expect(res.status).toBe(200); // the error in the answer (spec profile); 400 under `corporate`
      expect(res.json).toEqual(rpcError('bad-call', -32602, /Invalid params/));
      expect(res.json.error.data).toMatchObject({ field });
    });
  });

  describe('authentication', () => {
    it('answers POST, GET and DELETE without a token with 401 and a Bearer challenge; the session survives', async () => {
      const noToken: [string, RequestInit][] = [
        [
          'POST initialize',
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH },
            body: JSON.stringify(initializeRequest(V)),
          },
        ],
        [
          'POST in a session',
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, 'mcp-session-id': sid },
            body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
          },
        ],
        ['GET', { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': sid } }],
        ['DELETE', { method: 'DELETE', headers: { 'mcp-session-id': sid } }],
      ];
      for (const [what, init] of noToken) {
        const res = await fetch(url, init);
        expect({ what, status: res.status }).toEqual({ what, status: 401 });
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="desk"/);
        expect(res.headers.get('mcp-session-id')).toBeNull();
        expect(await res.json()).toEqual(rpcError(null, -32001, /Unauthorized/));
      }
      expect((await inSession({ jsonrpc: '2.0', id: 'after-401', method: 'ping' })).json).toEqual(
        rpcResult('after-401', {}),
      );
    });
  });

  it('puts the corporate risk level on the wire for close_ticket (raw tools/list)', async () => {
    const res = await inSession({ jsonrpc: '2.0', id: 'tl', method: 'tools/list' });
    expect(res.status).toBe(200);
    const close = res.json.result.tools.find((t: { name: string }) => t.name === 'close_ticket');
    expect(close.annotations).toMatchObject({ riskLevel: 'high', destructiveHint: true, readOnlyHint: false });
    expect(close._meta['corporate/tool-safety']).toMatchObject({ risk: 'high', audit: 'desk.tool.close_ticket' });
  });
});
