import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { STDIO_SERVER, serverEnv } from './support/stdio-clients';
import { rpcError } from './support/rpc-error';
import { firstText } from './support/wait';

type Mode = { pin: string } | 'auto';

/**
 * The example server over stdio driven by the official client 2.4 in the 2026-07-28 era, pinned and in auto mode
 * (which probes with server/discover, finds a modern server and stays modern). Same tools, same answers as over HTTP.
 */
describe.each<[string, Mode]>([
  ['pinned to 2026-07-28', { pin: '2026-07-28' }],
  ['in auto mode', 'auto'],
])('desk over stdio with @modelcontextprotocol/client 2.4 %s', (_label, mode) => {
  let client: Client;
  let decline = false;

  beforeAll(async () => {
    client = new Client(
      { name: 'modern-stdio-e2e', version: '2.4.0' },
      { capabilities: { elicitation: {}, sampling: {} }, versionNegotiation: { mode } },
    );
    client.setRequestHandler('elicitation/create', async () =>
      decline ? { action: 'decline' as const } : { action: 'accept' as const, content: { confirm: true } },
    );
    client.setRequestHandler('sampling/createMessage', async () => ({
      role: 'assistant' as const,
      content: { type: 'text' as const, text: 'Dear customer, over stdio.' },
      model: 'e2e-model',
      stopReason: 'endTurn',
    }));
    await client.connect(new StdioClientTransport({ ...STDIO_SERVER, env: serverEnv(), stderr: 'ignore' }));
  }, 30_000);
  afterAll(async () => {
    await client?.close();
  });

  it('runs in the modern era', () => {
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
  });

  it('lists and calls tools', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...tools.map((t) => t.name)].sort());
    const found = await client.callTool({ name: 'search_tickets', arguments: { query: 'vpn' } });
    expect(found.structuredContent).toMatchObject({ tickets: expect.any(Array) });
  });

  it('answers the questions of a call through multi round-trip requests', async () => {
    decline = false;
    const closed = await client.callTool({ name: 'close_ticket', arguments: { id: 'HD-7', resolution: 'Replaced' } });
    expect(closed.structuredContent).toMatchObject({ id: 'HD-7', status: 'closed' });
    decline = true;
    const kept = await client.callTool({ name: 'close_ticket', arguments: { id: 'HD-8', resolution: 'Replaced' } });
    expect(firstText(kept)).toContain('did not confirm');
    const reply = await client.callTool({ name: 'draft_reply', arguments: { id: 'HD-8' } });
    expect(firstText(reply)).toContain('over stdio');
  });

  it('gives typed protocol errors', async () => {
    expect(await rpcError(client.callTool({ name: 'no_such_tool', arguments: {} }))).toMatchObject({ code: -32602 });
  });
});
