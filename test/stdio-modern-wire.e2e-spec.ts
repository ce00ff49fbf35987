import { RawStdioServer } from './support/raw-stdio';
import { MODERN_META } from './support/modern-post';
import { waitFor } from './support/wait';

const request = (id: string | number, method: string, params: Record<string, unknown> = {}, meta = MODERN_META) => ({
  jsonrpc: '2.0',
  id,
  method,
  params: { ...params, _meta: meta },
});

/**
 * 2026-07-28 over stdio by hand: the discovery probe a dual-era client sends first, a 2025 session beside stateless
 * requests in one process, cancellation by notifications/cancelled, and a subscriptions/listen stream on the shared
 * stdout whose messages carry their subscription id.
 */
describe('2026-07-28 over stdio, by hand', () => {
  let server: RawStdioServer;

  // Each test starts once the server has booted (a probe answered): its own waits then time what its requests cause,
  // not the process start and Nest's boot, which a loaded machine stretches past 5 s.
  beforeEach(async () => {
    server = new RawStdioServer();
    await server.booted();
  }, 60_000);
  afterEach(async () => {
    server.child.stdin!.end();
    await server.exited;
  });

  it('answers the server/discover probe, then serves a 2025 session and stateless requests side by side', async () => {
    server.send(request('probe', 'server/discover'));
    expect(await server.response('probe')).toMatchObject({
      result: { resultType: 'complete', supportedVersions: expect.arrayContaining(['2026-07-28', '2025-11-25']) },
    });
    const init = await server.initialize('init');
    expect(init).toMatchObject({ result: { protocolVersion: '2025-11-25' } });
    server.send({
      jsonrpc: '2.0',
      id: 'legacy',
      method: 'tools/call',
      params: { name: 'get_ticket', arguments: { id: 'HD-1' } },
    });
    server.send(request('modern', 'tools/call', { name: 'get_ticket', arguments: { id: 'HD-1' } }));
    const [legacy, modern] = [await server.response('legacy'), await server.response('modern')];
    expect(legacy.result).not.toHaveProperty('resultType');
    expect(modern.result).toMatchObject({ resultType: 'complete', structuredContent: { id: 'HD-1' } });
    server.send(request('gone', 'ping'));
    expect(await server.response('gone')).toMatchObject({ error: { code: -32601 } });
  });

  it('cancels a running request on notifications/cancelled: no answer, no further message for it', async () => {
    const meta = { ...MODERN_META, 'io.modelcontextprotocol/logLevel': 'info' };
    server.send(request('export', 'tools/call', { name: 'export_tickets', arguments: {} }, meta));
    await new Promise((r) => setTimeout(r, 150));
    server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'export' } });
    const at = server.messages().length;
    await new Promise((r) => setTimeout(r, 1_500)); // the export would have finished by now
    expect(server.messages().find((m) => m.id === 'export')).toBeUndefined();
    expect(server.messages().slice(at)).toEqual([]);
    server.send(request('after', 'tools/list'));
    expect(await server.response('after')).toMatchObject({ result: { tools: expect.any(Array) } });
  });

  it('opens a listen stream whose messages carry its subscription id, and ends it on notifications/cancelled', async () => {
    server.send(
      request('sub', 'subscriptions/listen', { notifications: { resourceSubscriptions: ['desk://tickets/HD-4'] } }),
    );
    await waitFor(() => server.messages().some((m) => m.method === 'notifications/subscriptions/acknowledged'), 5_000);
    server.send(
      request('close', 'tools/call', { name: 'close_ticket', arguments: { id: 'HD-4', resolution: 'Replaced' } }),
    );
    await server.response('close');
    await waitFor(() => server.messages().some((m) => m.method === 'notifications/resources/updated'), 5_000);
    const tagged = server
      .messages()
      .filter((m) => typeof m.method === 'string' && m.method.startsWith('notifications/'));
    for (const m of tagged)
      expect((m.params as { _meta?: Record<string, unknown> })._meta?.['io.modelcontextprotocol/subscriptionId']).toBe(
        'sub',
      );
    server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'sub' } });
    await new Promise((r) => setTimeout(r, 200));
    expect(server.messages().find((m) => m.id === 'sub')).toBeUndefined();
  });
});
