import { RawStdioServer } from './support/raw-stdio';
import { SDK1_STDIO, SDK2_STDIO, StdioFlavour, StdioSession } from './support/stdio-clients';
import { EXPORT_DURATION_MS, firstText, sleep, waitFor } from './support/wait';

const ALL_TOOLS = ['search_tickets', 'get_ticket', 'create_ticket', 'close_ticket', 'export_tickets', 'draft_reply'];

/** The example server over stdio (`main.js --stdio`), driven by both official client generations. */
describe.each<StdioFlavour>([SDK1_STDIO, SDK2_STDIO])('desk over stdio with $label', (flavour) => {
  let session: StdioSession;

  beforeAll(async () => {
    session = await flavour.connect();
  });
  afterAll(async () => {
    await session?.close();
  });

  it('initializes on 2025-11-25 and lists tools, prompts, resources and templates', async () => {
    const init = session.received.find((m) => m.id === session.sent.find((s) => s.method === 'initialize')!.id)!;
    expect(init.result).toMatchObject({
      protocolVersion: '2025-11-25',
      serverInfo: { name: 'desk', version: '0.1.0' },
    });
    expect(session.client.getServerVersion()).toMatchObject({ name: 'desk' });
    expect(session.client.getServerCapabilities()).toMatchObject({
      tools: {},
      prompts: {},
      resources: { subscribe: true },
      logging: {},
    });
    const { tools, nextCursor } = await session.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(ALL_TOOLS);
    expect(nextCursor).toBeUndefined();
    const { prompts } = await session.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['triage_ticket', 'agent_brief', 'agent_prompt']);
    const { resources } = await session.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([
      'desk://catalog/categories',
      'use://auth',
      'use://http-headers',
      'desk://agent/brief',
      'desk://agent/prompt',
      'project://version',
      'doc://readme',
    ]);
    const { resourceTemplates } = await session.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['desk://tickets/{id}']);
  });

  it('calls a tool with structured output, and reports invalid arguments as isError', async () => {
    const result = await session.callTool({ name: 'search_tickets', arguments: { query: 'payroll', limit: 3 } });
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as {
      tickets: { id: string; title: string }[];
      count: number;
      truncated: boolean;
    };
    expect(structured).toMatchObject({ count: 3, truncated: true });
    expect(structured.tickets.map((t) => t.id)).toEqual(['HD-3', 'HD-8', 'HD-13']);
    expect(JSON.parse(firstText(result))).toEqual(structured);

    const invalid = await session.callTool({ name: 'search_tickets', arguments: { limit: 'lots', bogus: true } });
    expect(invalid.isError).toBe(true);
    expect(firstText(invalid)).toContain('limit:');
    expect(firstText(invalid)).toContain('bogus: additionalProperties');
    expect(firstText(invalid)).not.toContain('lots');
  });

  it('gets a prompt and reads a templated resource', async () => {
    const prompt = await session.client.getPrompt({
      name: 'triage_ticket',
      arguments: { ticketId: 'HD-11', tone: 'formal' },
    });
    expect((prompt.messages[0].content as { text: string }).text).toMatch(/ticket HD-11 .*formal tone/s);
    const read = await session.client.readResource({ uri: 'desk://tickets/HD-11' });
    expect(read.contents[0]).toMatchObject({ uri: 'desk://tickets/HD-11', mimeType: 'application/json' });
    expect(JSON.parse(read.contents[0].text as string)).toMatchObject({ id: 'HD-11', requester: 'user11@example.com' });
  });

  it('reports rising progress, all of it before the result, and logs during export_tickets', async () => {
    const seen: number[] = [];
    const logs: unknown[] = [];
    session.onLog((data) => logs.push(data));
    const result = await session.callTool(
      { name: 'export_tickets', arguments: {} },
      { onprogress: (p) => seen.push(p.progress) },
    );
    expect(firstText(result).split('\n')).toHaveLength(26);
    expect(logs).toContainEqual(expect.objectContaining({ event: 'export_done', rows: 25 }));
    // On the wire: rising values ending at 25/25, every one before the response.
    const id = session.sent.filter((m) => m.method === 'tools/call').at(-1)!.id;
    const responseAt = session.received.findIndex((m) => m.id === id);
    const progress = session.received
      .map((m, i) => ({ m, i }))
      .filter(({ m }) => m.method === 'notifications/progress' && m.params?.progressToken === id);
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress.every(({ i }) => i < responseAt)).toBe(true);
    const values = progress.map(({ m }) => m.params!.progress as number);
    expect([...values].sort((a, b) => a - b)).toEqual(values);
    expect(new Set(values).size).toBe(values.length);
    expect(progress.at(-1)!.m.params).toMatchObject({ progress: 25, total: 25 });
    // Both SDKs dispatch notifications a microtask late, so one that shares a read with the response
    // misses its callback: the callback sees a prefix of what was sent.
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(values.slice(0, seen.length)).toEqual(seen);
  });

  it('round-trips sampling through draft_reply', async () => {
    const asked: string[] = [];
    session.onSampling(async (req) => {
      asked.push((req.params.messages[0].content as { text: string }).text);
      return {
        role: 'assistant',
        model: 'stdio-model',
        content: { type: 'text', text: `Reply #${asked.length} from ${flavour.label}` },
      };
    });
    const result = await session.callTool({ name: 'draft_reply', arguments: { id: 'HD-12' } });
    expect(result.isError).toBeFalsy();
    expect(asked).toEqual(['Draft a short, polite reply to: Laptop battery swollen (#12)']);
    expect(firstText(result)).toBe(`Reply #1 from ${flavour.label}`);
  });

  it('cancels a running call: notifications/cancelled goes out and no result ever comes back', async () => {
    const logs: unknown[] = [];
    session.onLog((data) => logs.push(data));
    session.errors.length = 0;
    const controller = new AbortController();
    const call = session.callTool({ name: 'export_tickets', arguments: {} }, { signal: controller.signal });
    setTimeout(() => controller.abort('stop the export'), 150);
    await expect(call).rejects.toThrow('stop the export');
    await sleep(EXPORT_DURATION_MS + 300);
    const callId = session.sent.filter((m) => m.method === 'tools/call').at(-1)!.id;
    expect(session.sent.filter((m) => m.method === 'notifications/cancelled').at(-1)).toMatchObject({
      params: { requestId: callId, reason: 'stop the export' },
    });
    expect(session.received.filter((m) => m.id === callId)).toEqual([]);
    expect(logs).not.toContainEqual(expect.objectContaining({ event: 'export_done' }));
    expect(session.errors.filter((e) => e.includes('unknown message ID'))).toEqual([]);
    await expect(session.client.ping()).resolves.toEqual({});
  });

  it('keeps logs on stderr, and the process is gone once the client closes', async () => {
    expect(session.stderr()).toContain('Nest');
    expect(session.received.every((m) => (m as { jsonrpc?: string }).jsonrpc === '2.0')).toBe(true);
    const pid = session.pid()!;
    expect(pid).toBeGreaterThan(0);
    await session.close();
    expect(() => process.kill(pid, 0)).toThrow();
  });
});

describe('desk stdio framing, by hand', () => {
  let server: RawStdioServer;

  beforeEach(() => {
    server = new RawStdioServer();
  });
  afterEach(() => {
    server.kill();
  });

  it('writes only newline-delimited JSON-RPC 2.0 on stdout, logs on stderr, and exits 0 when stdin closes', async () => {
    const init = await server.initialize(1);
    expect(init.result).toMatchObject({
      protocolVersion: '2025-11-25',
      serverInfo: { name: 'desk' },
      capabilities: { tools: {} },
    });
    server.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    server.send({
      jsonrpc: '2.0',
      id: 'three',
      method: 'tools/call',
      params: { name: 'get_ticket', arguments: { id: 'HD-1' }, _meta: { progressToken: 'p1' } },
    });
    const list = await server.response(2);
    expect((list.result!.tools as { name: string }[]).map((t) => t.name)).toEqual(ALL_TOOLS);
    const call = await server.response('three');
    expect(call.result).toMatchObject({ structuredContent: { id: 'HD-1' } });

    server.endInput();
    const exit = await server.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(server.stdout.endsWith('\n')).toBe(true);
    const lines = server.lines();
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines) {
      const msg = JSON.parse(line) as Record<string, unknown>;
      expect(msg.jsonrpc).toBe('2.0');
      const isResponse = 'id' in msg && ('result' in msg || 'error' in msg);
      const isNotificationOrRequest = typeof msg.method === 'string';
      expect(isResponse || isNotificationOrRequest).toBe(true);
    }
    expect(
      server
        .messages()
        .filter((m) => m.id !== undefined && m.method === undefined)
        .map((m) => m.id),
    ).toEqual([1, 2, 'three']);
    expect(server.stderr).toMatch(/Nest/);
    expect(server.stdout).not.toMatch(/Nest/);
  });

  it('answers a malformed line with a -32700 error line and keeps serving', async () => {
    await server.initialize(1);
    server.send('{"jsonrpc":"2.0","id":2,"method":');
    const parseError = await server.response(null);
    expect(parseError).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect(server.child.exitCode).toBeNull();
    server.send({ jsonrpc: '2.0', id: 3, method: 'ping' });
    expect(await server.response(3)).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
    server.send({ jsonrpc: '2.0', id: 4, method: 'resources/read', params: { uri: 'desk://tickets/HD-2' } });
    const read = await server.response(4);
    expect((read.result!.contents as { uri: string }[])[0].uri).toBe('desk://tickets/HD-2');
    server.endInput();
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });
});

describe('desk over stdio: limits and shutdown', () => {
  let server: RawStdioServer;
  beforeEach(() => {
    server = new RawStdioServer();
  });
  afterEach(() => server.kill());

  it('refuses requests before initialize, except ping', async () => {
    server.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(await server.response(1)).toMatchObject({
      id: 1,
      error: { code: -32600, message: expect.stringContaining('initialize') },
    });
    server.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    expect(await server.response(2)).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    await server.initialize(3);
    server.send({ jsonrpc: '2.0', id: 4, method: 'tools/list' });
    expect((await server.response(4)).result).toBeDefined();
  });

  it('drops a line over 1 MiB with -32005 without buffering it, then keeps serving', async () => {
    await server.initialize(1);
    server.send(`{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"${'x'.repeat(2 * 1024 * 1024)}"}}`);
    expect(await server.response(null)).toMatchObject({ id: null, error: { code: -32005 } });
    server.send({ jsonrpc: '2.0', id: 3, method: 'ping' });
    expect(await server.response(3)).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
  });

  it('exits promptly when stdin closes while a tool waits for the client', async () => {
    server.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: { elicitation: {} },
        clientInfo: { name: 'raw', version: '1' },
      },
    });
    await server.response(1);
    server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    server.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'close_ticket', arguments: { id: 'HD-3', resolution: 'Fixed it' } },
    });
    await waitFor(
      () => server.messages().some((m) => m.method === 'elicitation/create'),
      5000,
      'an elicitation request',
    );
    const started = Date.now();
    server.endInput();
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(5000);
    // The call could not be confirmed, so it ended as a tool error and the ticket stayed open.
    expect(await server.response(2)).toMatchObject({ id: 2, error: { code: -32000 } });
  });
});
