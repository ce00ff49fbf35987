import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { rpcError } from './support/rpc-error';
import { bearer, DESK_TOOLS, RunningServer, startDeskHttp } from './support/server-process';
import { EXPORT_DURATION_MS, firstText, sleep, waitFor } from './support/wait';

/** One JSON-RPC message the client POSTed, as seen on the wire. */
interface Sent {
  method?: string;
  id?: unknown;
  params?: Record<string, unknown>;
}

/** The example server driven over Streamable HTTP by the official 2.x client package. */
describe('desk over HTTP with @modelcontextprotocol/client 2.x', () => {
  let server: RunningServer;
  let client: Client;
  let transport: StreamableHTTPClientTransport;
  let sent: Sent[];
  let clientErrors: string[];

  beforeAll(async () => {
    server = await startDeskHttp({ MCP_PAGE_SIZE: '2' });
  });
  afterAll(async () => {
    await server?.stop();
  });

  beforeEach(async () => {
    sent = [];
    clientErrors = [];
    // Records every message the client POSTs, so tests can check what went over the wire.
    const recordingFetch = (input: string | URL | Request, init?: RequestInit) => {
      if (init?.method === 'POST' && typeof init.body === 'string') {
        const body = JSON.parse(init.body) as Sent | Sent[];
        sent.push(...(Array.isArray(body) ? body : [body]));
      }
      return fetch(input, init);
    };
    client = new Client({ name: 'sdk2-e2e', version: '2.0.0' }, { capabilities: { sampling: {}, elicitation: {} } });
    client.onerror = (e) => clientErrors.push(e.message);
    // The minimal AuthProvider: the SDK sends `Authorization: Bearer <token>` on every request.
    transport = new StreamableHTTPClientTransport(new URL(server.url), {
      fetch: recordingFetch,
      authProvider: { token: async () => server.token },
    });
    await client.connect(transport);
  });
  afterEach(async () => {
    await client?.close();
  });

  it('negotiates 2025-11-25 on the legacy era and reports server info, instructions and capabilities', () => {
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect(transport.protocolVersion).toBe('2025-11-25');
    expect(client.getProtocolEra()).toBe('legacy');
    expect(transport.sessionId).toMatch(/\S{16,}/);
    expect(client.getServerVersion()).toMatchObject({ name: 'desk', version: '0.1.0' });
    expect(client.getInstructions()).toContain('Desk tickets');
    expect(client.getServerCapabilities()).toMatchObject({
      tools: {},
      prompts: {},
      resources: { subscribe: true },
      completions: {},
      logging: {},
    });
    const init = sent.find((m) => m.method === 'initialize')!;
    expect(init.params).toMatchObject({
      protocolVersion: '2025-11-25',
      capabilities: { sampling: {}, elicitation: {} },
      clientInfo: { name: 'sdk2-e2e' },
    });
    expect(sent.map((m) => m.method)).toContain('notifications/initialized');
  });

  it('walks tool pages one by one with opaque cursors, and aggregates them all without a cursor', async () => {
    const first = await client.request({ method: 'tools/list', params: {} });
    expect(first.tools.map((t) => t.name)).toEqual(DESK_TOOLS.slice(0, 2));
    expect(typeof first.nextCursor).toBe('string');
    const names = first.tools.map((t) => t.name);
    let cursor = first.nextCursor;
    let pages = 1;
    while (cursor) {
      const page = await client.listTools({ cursor });
      names.push(...page.tools.map((t) => t.name));
      cursor = page.nextCursor;
      pages++;
    }
    expect(pages).toBe(3);
    expect(names).toEqual(DESK_TOOLS);

    const before = sent.filter((m) => m.method === 'tools/list').length;
    const all = await client.listTools();
    expect(all.tools.map((t) => t.name)).toEqual(DESK_TOOLS);
    expect(all.nextCursor).toBeUndefined();
    expect(sent.filter((m) => m.method === 'tools/list').length - before).toBe(3);
    expect(await rpcError(client.listTools({ cursor: 'bm90LWEtY3Vyc29y' }))).toMatchObject({ code: -32602 });
  });

  it('calls a tool whose structured content passes the client-side output-schema check, mirrored as text', async () => {
    const { tools } = await client.listTools(); // caches the output schemas the client validates against
    expect(tools.find((t) => t.name === 'search_tickets')!.outputSchema).toMatchObject({ type: 'object' });
    const result = await client.callTool({ name: 'search_tickets', arguments: { query: 'vpn', limit: 2 } });
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as {
      tickets: { id: string; title: string }[];
      count: number;
      truncated: boolean;
    };
    expect(structured.count).toBe(2);
    expect(structured.truncated).toBe(true);
    expect(structured.tickets.every((t) => /vpn/i.test(t.title))).toBe(true);
    expect(JSON.parse(firstText(result))).toEqual(structured);
    const ticket = await client.callTool({ name: 'get_ticket', arguments: { id: 'HD-2' } });
    expect(ticket.structuredContent).toMatchObject({ id: 'HD-2', status: 'open' });
  });

  it('returns isError naming each violated field and constraint, without echoing values', async () => {
    const result = await client.callTool({
      name: 'create_ticket',
      arguments: { title: 'tiny', priority: 'whenever', extra: 1 },
    });
    expect(result.isError).toBe(true);
    const text = firstText(result);
    expect(text).toContain('title: minLength');
    expect(text).toContain('priority: enum');
    expect(text).toContain('description: required');
    expect(text).toContain('extra: additionalProperties');
    expect(text).not.toContain('tiny');
    expect(text).not.toContain('whenever');
  });

  it('rejects an unknown tool with -32602 (an HTTP 400 under the default corporate status profile)', async () => {
    const call = client.callTool({ name: 'no_such_tool', arguments: {} });
    expect(await rpcError(call)).toMatchObject({ code: -32602, message: expect.stringContaining('Unknown tool') });
  });

  it('gets a prompt with arguments, refuses a missing required one, and completes arguments', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts[0]).toMatchObject({
      name: 'triage_ticket',
      arguments: [{ name: 'ticketId', required: true }, { name: 'tone' }],
    });
    const prompt = await client.getPrompt({ name: 'triage_ticket', arguments: { ticketId: 'HD-6', tone: 'brief' } });
    const text = (prompt.messages[0].content as { text: string }).text;
    expect(text).toContain('HD-6');
    expect(text).toContain('brief');
    expect(prompt.messages[1].content).toMatchObject({ type: 'resource_link', uri: 'desk://tickets/HD-6' });
    expect(await rpcError(client.getPrompt({ name: 'triage_ticket', arguments: {} }))).toMatchObject({ code: -32602 });
    const tones = await client.complete({
      ref: { type: 'ref/prompt', name: 'triage_ticket' },
      argument: { name: 'tone', value: 'f' },
    });
    expect(tones.completion.values).toEqual(['friendly', 'formal']);
    const ids = await client.complete({
      ref: { type: 'ref/prompt', name: 'triage_ticket' },
      argument: { name: 'ticketId', value: 'HD-2' },
    });
    expect(ids.completion.values).toEqual(['HD-2', 'HD-20', 'HD-21', 'HD-22', 'HD-23', 'HD-24', 'HD-25']);
  });

  it('reads fixed and templated resources, lists templates, completes template variables', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([
      'desk://catalog/categories',
      'use://auth',
      'use://http-headers',
      'desk://agent/brief',
      'desk://agent/prompt',
      'project://version',
      'doc://readme',
    ]);
    const categories = await client.readResource({ uri: 'desk://catalog/categories' });
    expect(categories.contents[0]).toMatchObject({
      uri: 'desk://catalog/categories',
      mimeType: 'application/json',
    });
    expect(JSON.parse((categories.contents[0] as { text: string }).text)).toMatchObject({
      categories: expect.any(Array),
      priorities: expect.any(Array),
    });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['desk://tickets/{id}']);
    const ticket = await client.readResource({ uri: 'desk://tickets/HD-7' });
    expect(ticket.contents[0].uri).toBe('desk://tickets/HD-7');
    expect(JSON.parse((ticket.contents[0] as { text: string }).text)).toMatchObject({ id: 'HD-7' });
    expect(await rpcError(client.readResource({ uri: 'desk://tickets/HD-424242' }))).toMatchObject({
      code: -32002,
    });
    const completion = await client.complete({
      ref: { type: 'ref/resource', uri: 'desk://tickets/{id}' },
      argument: { name: 'id', value: 'hd-1' },
    });
    expect(completion.completion.values).toEqual([
      'HD-1',
      'HD-10',
      'HD-11',
      'HD-12',
      'HD-13',
      'HD-14',
      'HD-15',
      'HD-16',
      'HD-17',
      'HD-18',
      'HD-19',
    ]);
  });

  it('sends rising progress against the request token, and log messages, during export_tickets', async () => {
    const progress: { progress: number; total?: number; message?: string }[] = [];
    const logs: unknown[] = [];
    client.setNotificationHandler('notifications/message', (n) => {
      logs.push(n.params.data);
    });
    const result = await client.callTool(
      { name: 'export_tickets', arguments: {} },
      { onprogress: (p) => progress.push(p) },
    );
    const csv = firstText(result).split('\n');
    expect(csv[0]).toBe('id,status,priority,category,title');
    expect(csv).toHaveLength(26);
    const call = sent.find((m) => m.method === 'tools/call')!;
    expect((call.params!._meta as { progressToken?: unknown }).progressToken).toBe(call.id);
    const values = progress.map((p) => p.progress);
    expect(values.length).toBeGreaterThanOrEqual(3);
    expect([...values].sort((a, b) => a - b)).toEqual(values);
    expect(new Set(values).size).toBe(values.length);
    expect(progress.at(-1)).toMatchObject({ progress: 25, total: 25 });
    expect(logs).toContainEqual(expect.objectContaining({ event: 'export_done', rows: 25 }));
  });

  it('cancels through an AbortSignal: notifications/cancelled goes out and the server never answers', async () => {
    const logs: unknown[] = [];
    client.setNotificationHandler('notifications/message', (n) => {
      logs.push(n.params.data);
    });
    const controller = new AbortController();
    const call = client.callTool({ name: 'export_tickets', arguments: {} }, { signal: controller.signal });
    setTimeout(() => controller.abort('user gave up'), 150);
    await expect(call).rejects.toThrow('user gave up');
    // Past the point the export would have finished: no late result, no completion log.
    await sleep(EXPORT_DURATION_MS + 300);
    const callId = sent.find((m) => m.method === 'tools/call')!.id;
    const cancelled = sent.find((m) => m.method === 'notifications/cancelled');
    expect(cancelled?.params).toMatchObject({ requestId: callId, reason: 'user gave up' });
    expect(clientErrors.filter((e) => e.includes('unknown message ID'))).toEqual([]);
    expect(logs).not.toContainEqual(expect.objectContaining({ event: 'export_done' }));
    await expect(client.ping()).resolves.toEqual({});
  });

  it('round-trips sampling: draft_reply asks the client model and returns its text', async () => {
    const seen: { maxTokens?: number; text?: string }[] = [];
    client.setRequestHandler('sampling/createMessage', async (req) => {
      const text = (req.params.messages[0].content as { text: string }).text;
      seen.push({ maxTokens: req.params.maxTokens, text });
      return {
        role: 'assistant',
        model: 'sdk2-test-model',
        content: { type: 'text', text: `SDK2 draft for: ${text.slice(-30)}` },
      };
    });
    const result = await client.callTool({ name: 'draft_reply', arguments: { id: 'HD-9' } });
    expect(result.isError).toBeFalsy();
    expect(seen).toHaveLength(1);
    expect(seen[0].maxTokens).toBe(300);
    expect(seen[0].text).toContain('Draft a short, polite reply to:');
    expect(firstText(result)).toBe(`SDK2 draft for: ${seen[0].text!.slice(-30)}`);
  });

  it('round-trips elicitation and notifies a subscriber when the ticket closes', async () => {
    const uri = 'desk://tickets/HD-8';
    const updated: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => {
      updated.push(n.params.uri);
    });
    await client.subscribeResource({ uri });
    await sleep(100); // lets the standalone GET stream, which carries the update, open
    const asked: string[] = [];
    let answer: { action: 'accept' | 'decline'; content?: { confirm: boolean } } = { action: 'decline' };
    client.setRequestHandler('elicitation/create', async (req) => {
      asked.push(req.params.message);
      return answer;
    });
    const declined = await client.callTool({
      name: 'close_ticket',
      arguments: { id: 'HD-8', resolution: 'Swapped the dock' },
    });
    expect(declined.isError).toBe(true);
    expect(firstText(declined)).toContain('did not confirm');
    expect(JSON.parse(((await client.readResource({ uri })).contents[0] as { text: string }).text)).toMatchObject({
      status: 'open',
    });
    expect(updated).toEqual([]);

    answer = { action: 'accept', content: { confirm: true } };
    const closed = await client.callTool({
      name: 'close_ticket',
      arguments: { id: 'HD-8', resolution: 'Swapped the dock' },
    });
    expect(closed.structuredContent).toMatchObject({ id: 'HD-8', status: 'closed' });
    expect(asked).toHaveLength(2);
    expect(asked[0]).toContain('Close ticket HD-8');
    await waitFor(() => updated.includes(uri), 3000, 'resources/updated for HD-8');
    expect(JSON.parse(((await client.readResource({ uri })).contents[0] as { text: string }).text)).toMatchObject({
      status: 'closed',
    });
  });

  it('ends the session with DELETE; the old session id then gets 404', async () => {
    const sessionId = transport.sessionId!;
    await expect(client.ping()).resolves.toEqual({});
    await transport.terminateSession();
    expect(transport.sessionId).toBeUndefined();
    const res = await fetch(server.url, {
      method: 'POST',
      headers: {
        ...bearer(server),
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }),
    });
    expect(res.status).toBe(404);
  });
});
