import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { rpcError } from './support/rpc-error';
import { DESK_TOOLS_BY_NAME, RunningServer, startDeskHttp } from './support/server-process';
import { firstText, waitFor } from './support/wait';

/** One JSON-RPC message the client POSTed, with the headers it sent. */
interface Sent {
  body: { method?: string; id?: unknown; params?: Record<string, unknown> };
  headers: Headers;
}

type Mode = { pin: string } | 'auto';

/**
 * The example server (authentication on) driven over Streamable HTTP by the official client 2.4 in the 2026-07-28
 * era: pinned to the revision, and in auto mode (it probes with server/discover and stays modern). The same tools,
 * written once with ctx.elicit()/ctx.sample(), answer through multi round-trip requests.
 */
describe.each<[string, Mode]>([
  ['pinned to 2026-07-28', { pin: '2026-07-28' }],
  ['in auto mode', 'auto'],
])('desk over HTTP with @modelcontextprotocol/client 2.4 %s', (_label, mode) => {
  let server: RunningServer;
  let client: Client;
  let sent: Sent[];
  let answers: { elicit: Record<string, unknown> };

  beforeAll(async () => {
    server = await startDeskHttp();
  });
  afterAll(async () => {
    await server?.stop();
  });

  beforeEach(async () => {
    sent = [];
    answers = { elicit: { action: 'accept', content: { confirm: true } } };
    const recordingFetch = (input: string | URL | Request, init?: RequestInit) => {
      if (init?.method === 'POST' && typeof init.body === 'string')
        sent.push({ body: JSON.parse(init.body) as Sent['body'], headers: new Headers(init.headers) });
      return fetch(input, init);
    };
    client = new Client(
      { name: 'modern-e2e', version: '2.4.0' },
      { capabilities: { sampling: {}, elicitation: {} }, versionNegotiation: { mode } },
    );
    client.setRequestHandler('elicitation/create', async () => answers.elicit as never);
    client.setRequestHandler('sampling/createMessage', async () => ({
      role: 'assistant' as const,
      content: { type: 'text' as const, text: 'Dear customer, it is fixed.' },
      model: 'e2e-model',
      stopReason: 'endTurn',
    }));
    const transport = new StreamableHTTPClientTransport(new URL(server.url), {
      fetch: recordingFetch,
      authProvider: { token: async () => server.token },
    });
    await client.connect(transport);
  });
  afterEach(async () => {
    await client?.close();
  });

  it('speaks 2026-07-28 statelessly: no session, every request carries its version, method and name', async () => {
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    await client.callTool({ name: 'search_tickets', arguments: { query: 'vpn' } });
    const call = sent.find((s) => s.body.method === 'tools/call')!;
    expect(call.headers.get('mcp-session-id')).toBeNull();
    expect(call.headers.get('mcp-protocol-version')).toBe('2026-07-28');
    expect(call.headers.get('mcp-method')).toBe('tools/call');
    expect(call.headers.get('mcp-name')).toBe('search_tickets');
    expect(call.body.params?._meta).toMatchObject({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28' });
    expect(sent.some((s) => s.body.method === 'initialize')).toBe(false);
  });

  it('lists the tools in a stable order with caching hints, and identifies the server on every result', async () => {
    const list = await client.listTools();
    expect(list.tools.map((t) => t.name)).toEqual(DESK_TOOLS_BY_NAME);
    expect(list).toMatchObject({ ttlMs: 60_000, cacheScope: 'private' });
    expect(list._meta?.['io.modelcontextprotocol/serverInfo']).toMatchObject({ name: 'desk', version: '0.1.0' });
  });

  it('asks for confirmation through an InputRequiredResult and closes the ticket on the retry', async () => {
    const id = 'HD-5';
    const closed = await client.callTool({ name: 'close_ticket', arguments: { id, resolution: 'Extinguished' } });
    expect(closed.isError).toBeFalsy();
    expect(closed.structuredContent).toMatchObject({ id, status: 'closed' });
    // Two POSTs of the same call: the first answered input_required, the retry carries the answer and the state.
    const posts = sent.filter((s) => s.body.method === 'tools/call' && s.body.params?.name === 'close_ticket');
    expect(posts).toHaveLength(2);
    expect(posts[1].body.params).toMatchObject({
      inputResponses: { elicitation_1: { action: 'accept' } },
      requestState: expect.any(String),
    });
    expect(posts[1].body.id).not.toEqual(posts[0].body.id);
  });

  it('does not act when the user declines: the method ran again and stopped before closing', async () => {
    answers.elicit = { action: 'decline' };
    const closed = await client.callTool({ name: 'close_ticket', arguments: { id: 'HD-2', resolution: 'Not needed' } });
    expect(closed.isError).toBe(true);
    expect(firstText(closed)).toContain('did not confirm');
    const ticket = await client.callTool({ name: 'get_ticket', arguments: { id: 'HD-2' } });
    expect(ticket.structuredContent).toMatchObject({ status: 'open' });
  });

  it('samples the client model through the same round trip', async () => {
    const reply = await client.callTool({ name: 'draft_reply', arguments: { id: 'HD-1' } });
    expect(firstText(reply)).toContain('Dear customer');
  });

  it('streams progress on the answer of the call itself', async () => {
    const progress: number[] = [];
    await client.callTool(
      { name: 'export_tickets', arguments: {} },
      { onprogress: (p) => progress.push(p.progress), timeout: 20_000 },
    );
    expect(progress.length).toBeGreaterThan(1);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
  });

  it('gives the client typed protocol errors: unknown tool -32602, missing resource -32602 naming the URI', async () => {
    expect(await rpcError(client.callTool({ name: 'no_such_tool', arguments: {} }))).toMatchObject({ code: -32602 });
    const missing = (await client.readResource({ uri: 'desk://tickets/HD-999' }).catch((e: unknown) => e)) as {
      code: number;
      data?: { uri?: string };
    };
    expect(missing.code).toBe(-32602);
    expect(missing.data?.uri).toBe('desk://tickets/HD-999');
  });

  it('delivers a change on a subscriptions/listen stream, tagged with its subscription', async () => {
    const updated: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => {
      updated.push(String(n.params.uri));
    });
    const subscription = await client.listen({ resourceSubscriptions: ['desk://tickets/HD-3'] });
    try {
      expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: ['desk://tickets/HD-3'] });
      await client.callTool({ name: 'close_ticket', arguments: { id: 'HD-3', resolution: 'Done' } });
      await waitFor(() => updated.includes('desk://tickets/HD-3'), 5_000, 'resources/updated on the listen stream');
    } finally {
      await subscription.close();
    }
  });
});
