import { resolveMcpOptions } from '../mcp-options.resolver';
import { InMemorySessionStore } from '../stores/in-memory-session.store';
import { McpSessionManager } from './mcp-session.manager';
import { McpSession } from './mcp-session';

const options = resolveMcpOptions({ name: 'svc', version: '1.0.0', sessionIdleTimeoutMs: 60_000 });

async function initialized(manager: McpSessionManager): Promise<McpSession> {
  const session = manager.createHttpSession();
  session.negotiate('2025-11-25', { name: 'c', version: '1' }, { roots: {} });
  session.principal = { subject: 'alice', scopes: new Set(), claims: {} };
  await manager.persist(session);
  return session;
}

describe('McpSessionManager', () => {
  it('releases idle sessions a slice at a time, yielding to the event loop between slices', async () => {
    const manager = new McpSessionManager(new InMemorySessionStore(), options);
    const closed: number[] = [];
    let turn = 0;
    manager.onClose(() => closed.push(turn));
    for (let i = 0; i < 1_200; i++) manager.createHttpSession().lastSeen = Date.now() - 120_000;
    const fresh = manager.createHttpSession();

    manager['sweep']();
    // The first slice ran synchronously; the rest waits for later turns of the event loop.
    expect(manager.size).toBe(1_201 - 500);
    for (let i = 0; i < 5; i++) {
      turn++;
      await new Promise((r) => setImmediate(r));
    }
    expect(manager.size).toBe(1);
    expect(await manager.find(fresh.id)).toBe(fresh);
    expect(closed.filter((t) => t === 0)).toHaveLength(500);
    expect(Math.max(...closed)).toBeGreaterThan(0);
  });

  it('rebuilds a session another replica created from its record in the shared store', async () => {
    const store = new InMemorySessionStore();
    const a = new McpSessionManager(store, options);
    const b = new McpSessionManager(store, options);
    const session = await initialized(a);
    session.subscribe('desk://tickets/HD-1');
    session.setLogLevel('debug');
    await new Promise((r) => setImmediate(r));

    const rebuilt = (await b.find(session.id))!;
    expect(rebuilt).not.toBe(session);
    expect(rebuilt).toMatchObject({
      id: session.id,
      initialized: true,
      protocolVersion: '2025-11-25',
      clientInfo: { name: 'c', version: '1' },
      clientCapabilities: { roots: {} },
      logLevel: 'debug',
      principal: { subject: 'alice' },
    });
    expect([...rebuilt.subscriptions]).toEqual(['desk://tickets/HD-1']);
    // A change made through b is saved for everyone.
    rebuilt.unsubscribe('desk://tickets/HD-1');
    await new Promise((r) => setImmediate(r));
    expect((await store.get(session.id))!.subscriptions).toEqual([]);
  });

  it("ends a session everywhere on close; releasing one replica's copy keeps the record", async () => {
    const store = new InMemorySessionStore();
    const a = new McpSessionManager(store, options);
    const b = new McpSessionManager(store, options);
    const kept = await initialized(a);
    await a.onModuleDestroy(); // a drains: its copies go, the records stay
    expect(a.size).toBe(0);
    expect(await b.find(kept.id)).toBeDefined();

    const ended = await initialized(b);
    b.close(ended);
    await new Promise((r) => setImmediate(r));
    expect(await store.get(ended.id)).toBeUndefined();
    expect(await new McpSessionManager(store, options).find(ended.id)).toBeUndefined();
  });
});
