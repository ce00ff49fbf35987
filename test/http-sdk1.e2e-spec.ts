import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { rpcError } from './support/rpc-error';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ResourceUpdatedNotificationSchema,
  McpError as SdkMcpError,
} from '@modelcontextprotocol/sdk/types.js';
import { bearer, DESK_TOOLS, RunningServer, startDeskHttp } from './support/server-process';

/** The example server driven over Streamable HTTP by the official 1.x client SDK. */
describe('desk over HTTP with @modelcontextprotocol/sdk 1.x', () => {
  let server: RunningServer;
  let client: Client;
  let transport: StreamableHTTPClientTransport;

  beforeAll(async () => {
    server = await startDeskHttp({ MCP_PAGE_SIZE: '2' });
  });
  afterAll(async () => {
    await server.stop();
  });

  beforeEach(async () => {
    client = new Client({ name: 'sdk1-e2e', version: '1.0.0' }, { capabilities: { sampling: {}, elicitation: {} } });
    transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: bearer(server) } });
    await client.connect(transport);
  });
  afterEach(async () => {
    await client.close();
  });

  it('negotiates 2025-11-25 and reports server info and capabilities', () => {
    expect(transport.protocolVersion).toBe('2025-11-25');
    expect(client.getServerVersion()).toMatchObject({
      name: 'desk',
      version: '0.1.0',
      description: expect.stringContaining('desk'),
    });
    expect(client.getServerCapabilities()).toMatchObject({
      tools: {},
      prompts: {},
      resources: { subscribe: true },
      completions: {},
      logging: {},
    });
  });

  it('lists every tool across pages with opaque cursors, in a stable order', async () => {
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined);
      names.push(...page.tools.map((t) => t.name));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(names).toEqual(DESK_TOOLS);
    const again = await client.listTools();
    expect(again.tools.map((t) => t.name)).toEqual(names.slice(0, 2));
  });

  it('refuses a forged cursor with -32602', async () => {
    expect(await rpcError(client.listTools({ cursor: 'bm90LWEtY3Vyc29y' }))).toMatchObject({ code: -32602 });
  });

  it('describes mutating tools with risk and side effects in description and annotations', async () => {
    const tools = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined);
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    const close = tools.find((t) => t.name === 'close_ticket')!;
    expect(close.description).toContain('Risk: high.');
    expect(close.description).toContain('Side effects:');
    expect(close.description).toContain('Idempotency:');
    expect(close.description).toContain('Audit event: desk.tool.close_ticket.');
    expect(close.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(close._meta?.['corporate/tool-safety']).toMatchObject({
      risk: 'high',
      audit: 'desk.tool.close_ticket',
      idempotency: { key: 'id' },
    });
    const create = tools.find((t) => t.name === 'create_ticket')!;
    expect(create.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
    expect(create.inputSchema.required).toEqual(
      expect.arrayContaining(['title', 'description', 'category', 'priority', 'requester', 'idempotencyKey']),
    );
    expect((create.inputSchema.properties as Record<string, { description?: string }>).title.description).toMatch(
      /summary/,
    );
  });

  it('calls a tool and gets structured content that matches its output schema, mirrored as text', async () => {
    const result = await client.callTool({ name: 'search_tickets', arguments: { query: 'vpn', limit: 2 } });
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as { tickets: { id: string }[]; count: number; truncated: boolean };
    expect(structured.count).toBe(2);
    expect(structured.truncated).toBe(true);
    expect(JSON.parse((result.content as { text: string }[])[0].text)).toEqual(structured);
  });

  it('returns isError naming each violated field and constraint, without echoing values', async () => {
    const secret = 'tiny';
    const result = await client.callTool({
      name: 'create_ticket',
      arguments: { title: secret, priority: 'whenever', extra: 1 },
    });
    expect(result.isError).toBe(true);
    const text = (result.content as { text: string }[])[0].text;
    expect(text).toContain('title: minLength');
    expect(text).toContain('priority: enum');
    expect(text).toContain('description: required');
    expect(text).toContain('extra: additionalProperties');
    expect(text).not.toContain(secret);
    expect(text).not.toContain('whenever');
  });

  it('answers an unknown tool with -32602 "Unknown tool"', async () => {
    expect(await rpcError(client.callTool({ name: 'no_such_tool', arguments: {} }))).toMatchObject({
      code: -32602,
      message: expect.stringContaining('Unknown tool'),
    });
  });

  it('turns a domain failure into isError', async () => {
    const result = await client.callTool({ name: 'get_ticket', arguments: { id: 'HD-999999' } });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0].text).toContain('No ticket HD-999999');
  });

  it('creates a ticket once per idempotency key', async () => {
    const args = {
      title: 'Monitor flickers',
      description: 'Since Monday',
      category: 'hardware',
      priority: 'low',
      requester: 'a@example.com',
      idempotencyKey: 'key-sdk1-0001',
    };
    const first = await client.callTool({ name: 'create_ticket', arguments: args });
    const second = await client.callTool({ name: 'create_ticket', arguments: args });
    expect((first.structuredContent as { id: string }).id).toMatch(/^HD-\d+$/);
    expect((second.structuredContent as { id: string }).id).toBe((first.structuredContent as { id: string }).id);
  });

  it('gets a prompt with arguments and completes its arguments', async () => {
    const prompts = await client.listPrompts();
    expect(prompts.prompts[0]).toMatchObject({
      name: 'triage_ticket',
      arguments: [{ name: 'ticketId', required: true }, { name: 'tone' }],
    });
    const prompt = await client.getPrompt({ name: 'triage_ticket', arguments: { ticketId: 'HD-2', tone: 'formal' } });
    expect((prompt.messages[0].content as { text: string }).text).toContain('HD-2');
    expect((prompt.messages[0].content as { text: string }).text).toContain('formal');
    expect(await rpcError(client.getPrompt({ name: 'triage_ticket', arguments: {} }))).toMatchObject({ code: -32602 });
    expect(
      await rpcError(client.getPrompt({ name: 'triage_ticket', arguments: { ticketId: 'HD-99999' } })),
    ).toMatchObject({ code: -32602, message: expect.stringContaining('No ticket HD-99999') });
    const completion = await client.complete({
      ref: { type: 'ref/prompt', name: 'triage_ticket' },
      argument: { name: 'tone', value: 'f' },
    });
    expect(completion.completion.values).toEqual(['friendly', 'formal']);
  });

  it('reads a fixed resource and a templated one, lists templates, completes template variables', async () => {
    // Pages of 2 (MCP_PAGE_SIZE): the app's resource, use://, then the corporate built-ins.
    const uris: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listResources(cursor ? { cursor } : undefined);
      uris.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(4);
    expect(uris).toEqual([
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
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates[0].uriTemplate).toBe('desk://tickets/{id}');
    const ticket = await client.readResource({ uri: 'desk://tickets/HD-3' });
    expect(JSON.parse((ticket.contents[0] as { text: string }).text)).toMatchObject({ id: 'HD-3' });
    expect(await rpcError(client.readResource({ uri: 'desk://tickets/HD-424242' }))).toMatchObject({
      code: -32002,
    });
    expect(await rpcError(client.readResource({ uri: 'other://x' }))).toMatchObject({ code: -32002 });
    expect(await rpcError(client.subscribeResource({ uri: 'other://x' }))).toMatchObject({ code: -32002 });
    const completion = await client.complete({
      ref: { type: 'ref/resource', uri: 'desk://tickets/{id}' },
      argument: { name: 'id', value: 'hd-1' },
    });
    expect(completion.completion.values).toContain('HD-1');
    expect(completion.completion.values).toContain('HD-10');
  });

  it('sends progress that rises, and logs, during a long call', async () => {
    const progress: number[] = [];
    const logs: unknown[] = [];
    client.setNotificationHandler(
      (await import('@modelcontextprotocol/sdk/types.js')).LoggingMessageNotificationSchema,
      (n) => {
        logs.push(n.params.data);
      },
    );
    const result = await client.callTool({ name: 'export_tickets', arguments: {} }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    expect((result.content as { text: string }[])[0].text.split('\n')[0]).toBe('id,status,priority,category,title');
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    expect(new Set(progress).size).toBe(progress.length);
    expect(logs).toContainEqual(expect.objectContaining({ event: 'export_done' }));
  });

  it('cancels a running call: the request is aborted and no result arrives', async () => {
    const controller = new AbortController();
    const call = client.callTool({ name: 'export_tickets', arguments: {} }, undefined, { signal: controller.signal });
    setTimeout(() => controller.abort('user gave up'), 150);
    await expect(call).rejects.toThrow();
    // The session still works afterwards, and a cancellation is not logged as a fault.
    await expect(client.ping()).resolves.toEqual({});
    await new Promise((r) => setTimeout(r, 300));
    expect(server.stderr()).not.toMatch(/AbortError|ExceptionsHandler/);
  });

  it('round-trips sampling: the tool asks the client model for a draft', async () => {
    client.setRequestHandler(CreateMessageRequestSchema, async (req) => ({
      role: 'assistant',
      content: {
        type: 'text',
        text: `Dear requester, about "${(req.params.messages[0].content as { text: string }).text.slice(0, 20)}"`,
      },
      model: 'test-model',
    }));
    const result = await client.callTool({ name: 'draft_reply', arguments: { id: 'HD-4' } });
    expect((result.content as { text: string }[])[0].text).toContain('Dear requester');
  });

  it('round-trips elicitation and notifies subscribers when a ticket changes', async () => {
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updated.push(n.params.uri);
    });
    await client.subscribeResource({ uri: 'desk://tickets/HD-5' });
    // A GET stream carries notifications that belong to no request.
    await new Promise((r) => setTimeout(r, 100));
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'decline' }));
    const declined = await client.callTool({
      name: 'close_ticket',
      arguments: { id: 'HD-5', resolution: 'Replaced cable' },
    });
    expect(declined.isError).toBe(true);
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { confirm: true } }));
    const closed = await client.callTool({
      name: 'close_ticket',
      arguments: { id: 'HD-5', resolution: 'Replaced cable' },
    });
    expect(closed.structuredContent).toMatchObject({ id: 'HD-5', status: 'closed' });
    await waitFor(() => updated.includes('desk://tickets/HD-5'));
  });

  it('ends the session on DELETE; the old session id then gets 404', async () => {
    const sessionId = transport.sessionId!;
    await transport.terminateSession();
    const res = await fetch(server.url, {
      method: 'POST',
      headers: {
        ...bearer(server),
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }),
    });
    expect(res.status).toBe(404);
    expect(SdkMcpError).toBeDefined();
  });
});

async function waitFor(predicate: () => boolean, timeoutMs = 3000): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
