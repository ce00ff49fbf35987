import { RunningServer, startDeskHttp } from './support/server-process';
import { mcpPost, openMcpSession } from './support/mcp-post';
import { suiteRedis } from './support/replicas';

/** The SSE events of an answer: each event's id (undefined when it has none) and its JSON-RPC message. */
function eventsOf(text: string): { id?: string; message: Record<string, unknown> }[] {
  return text
    .split('\n\n')
    .filter((block) => block.includes('data: {'))
    .map((block) => ({
      id: /^id: (\S+)$/m.exec(block)?.[1],
      message: JSON.parse(/^data: (.*)$/m.exec(block)![1]) as Record<string, unknown>,
    }));
}

/**
 * Abuse review, round two (the High finding): progress events went into the event log (Redis Streams) without any
 * bound in bytes. The log is bounded per session and per caller; past the bound events still reach the client, without
 * an event id, and are not kept.
 */
describe('event log bytes per session and per caller (Redis)', () => {
  const { prefix, redis, cleanup } = suiteRedis();
  let server: RunningServer;
  beforeAll(async () => {
    server = await startDeskHttp({
      MCP_STORE: 'redis',
      MCP_REDIS_PREFIX: prefix,
      MCP_EVENT_LOG_BYTES_PER_SESSION: '1500',
      MCP_EVENT_LOG_BYTES_PER_SUBJECT: '2500',
    });
  });
  afterAll(async () => {
    await server?.stop();
    await cleanup();
  });

  const exportCall = (id: string) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'export_tickets', arguments: {}, _meta: { progressToken: 'x'.repeat(256) } },
  });

  /** Bytes of the messages stored in the suite's Redis event streams. */
  async function storedBytes(): Promise<number> {
    let total = 0;
    for (const key of await redis.keys(`${prefix}events:*`)) {
      for (const [, fields] of await redis.xrange(key, '-', '+')) total += fields[fields.indexOf('m') + 1].length;
    }
    return total;
  }

  it('keeps at most the budget, sends every event, and leaves other callers alone', async () => {
    const alice = await server.issuer!.mint({ sub: 'alice' });
    const first = await openMcpSession(server.url, alice);
    const events = eventsOf(
      await (await mcpPost(server.url, exportCall('a'), alice, { 'mcp-session-id': first })).text(),
    );
    // Every progress event and the result arrived; the later ones without an id (not kept for a resume).
    expect(events.filter((e) => e.message.method === 'notifications/progress').length).toBeGreaterThanOrEqual(3);
    expect(events.at(-1)!.message).toMatchObject({ id: 'a', result: expect.any(Object) });
    expect(events[0].id).toBeDefined();
    expect(events.at(-1)!.id).toBeUndefined();
    // The session's bound: within 1,500 bytes.
    await new Promise((r) => setTimeout(r, 200));
    expect(await storedBytes()).toBeLessThanOrEqual(1_500);

    // More sessions of the same caller: together within 2,500 bytes.
    for (let i = 0; i < 3; i++) {
      const sid = await openMcpSession(server.url, alice);
      await (await mcpPost(server.url, exportCall(`b${i}`), alice, { 'mcp-session-id': sid })).text();
    }
    await new Promise((r) => setTimeout(r, 200));
    const aliceBytes = await storedBytes();
    expect(aliceBytes).toBeLessThanOrEqual(2_500);

    const bob = await server.issuer!.mint({ sub: 'bob' });
    const bobSession = await openMcpSession(server.url, bob);
    const bobEvents = eventsOf(
      await (await mcpPost(server.url, exportCall('c'), bob, { 'mcp-session-id': bobSession })).text(),
    );
    expect(bobEvents[0].id).toBeDefined();
    await new Promise((r) => setTimeout(r, 200));
    expect(await storedBytes()).toBeGreaterThan(aliceBytes);
  });
});
