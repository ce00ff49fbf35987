import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { resolveMcpOptions } from '../mcp-options.resolver';
import { JsonRpcMessage } from '../wire/json-rpc';
import { InMemorySessionStore } from '../stores/in-memory-session.store';
import { RedisMessageBus } from '../stores/redis-message.bus';
import { RedisSessionStore } from '../stores/redis-session.store';
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

  it('delivers a list change made on one replica to the GET streams held by another (real Redis bus)', async () => {
    const prefix = `test:${randomBytes(6).toString('hex')}:`;
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    const store = new RedisSessionStore(redis, prefix);
    const [busA, busB] = [new RedisMessageBus(redis, prefix), new RedisMessageBus(redis, prefix)];
    const a = new McpSessionManager(store, options, busA);
    const b = new McpSessionManager(store, options, busB);
    try {
      a.onModuleInit();
      b.onModuleInit();
      await new Promise((r) => setTimeout(r, 100)); // the subscriptions reach Redis
      const session = await initialized(a);
      const held = (await b.find(session.id))!;
      const got: JsonRpcMessage[] = [];
      held.standalone = { send: (m) => got.push(m) > 0 };
      a.broadcast({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      const until = Date.now() + 3_000;
      while (!got.length && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
      expect(got).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
    } finally {
      await a.onModuleDestroy();
      await b.onModuleDestroy();
      await busA.onApplicationShutdown();
      await busB.onApplicationShutdown();
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    }
  });
});
