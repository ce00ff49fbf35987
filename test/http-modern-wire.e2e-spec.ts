import { RunningServer, startDeskHttp } from './support/server-process';
import { MODERN_META, messagesOf, modernPost } from './support/modern-post';
import { mcpPost, openMcpSession } from './support/mcp-post';

/**
 * The 2026-07-28 era on the wire, byte by byte (no SDK): what the corporate profile adds or decides around the
 * specification's rules on the example server with authentication on, beside its 2025 sessions.
 */
describe('2026-07-28 on the wire, beside 2025 sessions (desk, authentication on)', () => {
  let server: RunningServer;
  let token: string;

  beforeAll(async () => {
    server = await startDeskHttp();
    token = server.token!;
  });
  afterAll(() => server?.stop());

  const post = (method: string, params: Record<string, unknown> = {}, o: Parameters<typeof modernPost>[3] = {}) =>
    modernPost(server.url, method, params, { token, ...o });

  it('discovers both eras on one endpoint, with identity and caching hints', async () => {
    const res = await post('server/discover', {}, { id: 'd1' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      id: 'd1',
      result: {
        resultType: 'complete',
        supportedVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
        capabilities: { tools: { listChanged: true }, resources: { subscribe: true } },
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'desk', version: '0.1.0' } },
        ttlMs: 60_000,
        cacheScope: 'private',
      },
    });
  });

  it('still serves a 2025 client on the same endpoint: initialize, session, tools/call without an envelope', async () => {
    const session = await openMcpSession(server.url, token);
    const res = await mcpPost(
      server.url,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_ticket', arguments: { id: 'HD-1' } } },
      token,
      { 'mcp-session-id': session },
    );
    const body = (await res.json()) as { result: Record<string, unknown> };
    expect(body.result.structuredContent).toMatchObject({ id: 'HD-1' });
    expect(body.result).not.toHaveProperty('resultType');
  });

  it('echoes the request id on the 2025 refusals that read the body (no session, unknown session)', async () => {
    const body = { jsonrpc: '2.0', id: 'legacy-9', method: 'tools/list' };
    const noSession = await mcpPost(server.url, body, token);
    expect(noSession.status).toBe(400);
    expect(await noSession.json()).toMatchObject({ id: 'legacy-9', error: { code: -32600 } });
    const unknown = await mcpPost(server.url, body, token, { 'mcp-session-id': 'no-such-session' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ id: 'legacy-9', error: { code: -32600 } });
  });

  it('lets a browser client send the 2026-07-28 headers: the preflight allows them, Mcp-Param-* included', async () => {
    const res = await fetch(server.url, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, mcp-protocol-version, mcp-method, mcp-name, mcp-param-region',
      },
    });
    expect(res.status).toBe(204);
    const allowed = res.headers.get('access-control-allow-headers')!.toLowerCase().split(/,\s*/);
    expect(allowed).toEqual(
      expect.arrayContaining(['authorization', 'mcp-protocol-version', 'mcp-method', 'mcp-name', 'mcp-param-region']),
    );
  });

  it('refuses a request without a token with 401 and the Bearer challenge, like a 2025 one', async () => {
    const res = await post('tools/list', {}, { token: undefined, headers: { authorization: undefined } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
  });

  it('answers a missing scope with 403, the insufficient_scope challenge, and the request id echoed', async () => {
    const reader = await server.issuer!.mint({ scope: 'tickets:read' });
    const res = await post(
      'tools/call',
      { name: 'create_ticket', arguments: { title: 'New laptop', description: 'Mine broke', category: 'hardware' } },
      { token: reader, id: 41 },
    );
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toMatch(
      /error="insufficient_scope".*scope="tickets:read tickets:write"/,
    );
    expect(await res.json()).toMatchObject({ id: 41, error: { code: -32001 } });
  });

  it('refuses headers that disagree with the body: 400, -32020, id echoed', async () => {
    const cases: Record<string, string | undefined>[] = [
      { 'mcp-name': 'search_tickets' },
      { 'mcp-method': 'tools/list' },
      { 'mcp-method': undefined },
      { 'mcp-protocol-version': undefined },
      { 'mcp-name': '=?base64?Z2V0X3RpY2tldA?=' }, // unpadded Base64 of get_ticket
    ];
    for (const [i, headers] of cases.entries()) {
      const res = await post('tools/call', { name: 'get_ticket', arguments: { id: 'HD-1' } }, { headers, id: 50 + i });
      expect({ i, status: res.status, body: await res.json() }).toMatchObject({
        i,
        status: 400,
        body: { id: 50 + i, error: { code: -32020 } },
      });
    }
    // The Base64 sentinel, decoded, does match.
    const encoded = await post(
      'tools/call',
      { name: 'get_ticket', arguments: { id: 'HD-1' } },
      { headers: { 'mcp-name': `=?base64?${Buffer.from('get_ticket').toString('base64')}?=` } },
    );
    expect(encoded.status).toBe(200);
  });

  it('names the supported revisions when asked for another: 400, -32022', async () => {
    const res = await post(
      'tools/list',
      {},
      {
        headers: { 'mcp-protocol-version': '2027-01-01' },
        meta: { ...MODERN_META, 'io.modelcontextprotocol/protocolVersion': '2027-01-01' },
        id: 'v',
      },
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      id: 'v',
      error: { code: -32022, data: { requested: '2027-01-01', supported: expect.arrayContaining(['2026-07-28']) } },
    });
  });

  it('refuses a JSON-RPC batch in 2026-07-28 terms (the revision has none)', async () => {
    const res = await fetch(server.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
      },
      body: JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: MODERN_META } }]),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      id: null,
      error: { code: -32600, message: expect.stringMatching(/batches/) },
    });
  });

  it('answers 404 and -32601 for the methods 2026-07-28 removed, and 405 to GET and DELETE in its terms', async () => {
    for (const method of ['ping', 'initialize', 'logging/setLevel', 'resources/subscribe', 'no/such']) {
      const res = await post(method, {}, { id: method });
      expect({ method, status: res.status, body: await res.json() }).toMatchObject({
        method,
        status: 404,
        body: { id: method, error: { code: -32601 } },
      });
    }
    for (const verb of ['GET', 'DELETE']) {
      const res = await fetch(server.url, {
        method: verb,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'text/event-stream',
          'mcp-protocol-version': '2026-07-28',
        },
      });
      expect({ verb, status: res.status, allow: res.headers.get('allow') }).toEqual({
        verb,
        status: 405,
        allow: 'POST',
      });
    }
  });

  it('never answers -32002 to this era: a missing resource is -32602 naming the URI', async () => {
    const res = await post('resources/read', { uri: 'desk://tickets/HD-404' }, { id: 7 });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      id: 7,
      error: { code: -32602, data: { uri: 'desk://tickets/HD-404', reason: 'not_found' } },
    });
  });

  it('sends a call its log lines only when the request set a log level', async () => {
    const silent = await messagesOf(await post('tools/call', { name: 'export_tickets', arguments: {} }));
    expect(silent.filter((m) => m.method === 'notifications/message')).toEqual([]);
    const meta = { ...MODERN_META, 'io.modelcontextprotocol/logLevel': 'info' };
    const logged = await messagesOf(await post('tools/call', { name: 'export_tickets', arguments: {} }, { meta }));
    expect(logged.filter((m) => m.method === 'notifications/message').length).toBeGreaterThan(0);
    expect(logged[logged.length - 1]).toMatchObject({ result: { resultType: 'complete' } });
  });

  it('never takes an answer to a question it did not ask: inputResponses without a requestState are ignored', async () => {
    const meta = { ...MODERN_META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
    const params = { name: 'close_ticket', arguments: { id: 'HD-10', resolution: 'Nobody asked' } };
    const answer = { elicitation_1: { action: 'accept', content: { confirm: true } } };
    const first = (await (await post('tools/call', { ...params, inputResponses: answer }, { meta })).json()) as {
      result: { resultType: string };
    };
    // The question is asked; the ticket is not closed by an answer sent before it.
    expect(first.result).toMatchObject({ resultType: 'input_required', inputRequests: { elicitation_1: {} } });
    const ticket = await messagesOf(await post('tools/call', { name: 'get_ticket', arguments: { id: 'HD-10' } }));
    expect(JSON.stringify(ticket)).toContain('"status":"open"');
  });

  it('refuses a tampered requestState, and one presented by another caller', async () => {
    const meta = { ...MODERN_META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
    const params = { name: 'close_ticket', arguments: { id: 'HD-9', resolution: 'Replaced the cable' } };
    const first = (await (await post('tools/call', params, { meta })).json()) as {
      result: { resultType: string; requestState: string; inputRequests: Record<string, unknown> };
    };
    expect(first.result).toMatchObject({ resultType: 'input_required', inputRequests: { elicitation_1: {} } });
    const answer = { elicitation_1: { action: 'accept', content: { confirm: true } } };
    const tampered = await post(
      'tools/call',
      { ...params, inputResponses: answer, requestState: `${first.result.requestState.slice(0, -2)}AA` },
      { meta },
    );
    expect(tampered.status).toBe(400);
    expect(await tampered.json()).toMatchObject({ error: { code: -32602, data: { field: 'requestState' } } });
    const mallory = await server.issuer!.mint({ sub: 'mallory' });
    const foreign = await post(
      'tools/call',
      { ...params, inputResponses: answer, requestState: first.result.requestState },
      { meta, token: mallory },
    );
    expect(await foreign.json()).toMatchObject({
      error: { code: -32602, message: expect.stringContaining('another caller') },
    });
    const retry = await post(
      'tools/call',
      { ...params, inputResponses: answer, requestState: first.result.requestState },
      { meta },
    );
    expect(await retry.json()).toMatchObject({
      result: { resultType: 'complete', structuredContent: { status: 'closed' } },
    });
  });
});
