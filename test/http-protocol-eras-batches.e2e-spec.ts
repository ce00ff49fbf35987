import { DESK_TOOLS, RunningServer, startAuthorizedDesk } from './support/server-process';
import { call, headerFor, initialize, openSession, post } from './support/raw-mcp-http';
import { rpcError, rpcResult } from './support/rpc-matchers';

/**
 * What differs between protocol revisions over Streamable HTTP, by hand (the rest is http-protocol-eras): JSON-RPC
 * batches (2025-03-26 only), a 2024-11-05 client flow, and the tool fields each revision defines.
 */
describe('protocol revisions over Streamable HTTP, by hand: batches and older flows', () => {
  let server: RunningServer;
  let url: string;
  beforeAll(async () => void ({ url } = server = await startAuthorizedDesk()));
  afterAll(() => server.stop());

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
});
