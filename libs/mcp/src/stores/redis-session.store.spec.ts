import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { RedisSessionStore } from './redis-session.store';
import { McpSessionRecord } from './session.store';

// The machine's Redis (CI starts one when absent); every run on its own key prefix, removed afterwards.
const prefix = `test:${randomBytes(6).toString('hex')}:`;
const record = (id: string): McpSessionRecord => ({
  id,
  protocolVersion: '2025-11-25',
  clientInfo: { name: 'c', version: '1' },
  clientCapabilities: { sampling: {} },
  logLevel: 'warning',
  subscriptions: ['desk://tickets/HD-1'],
  owner: { subject: 'alice' },
  createdAt: 1,
});

describe('RedisSessionStore (real Redis)', () => {
  let redis: Redis;
  let store: RedisSessionStore;
  beforeAll(() => {
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true });
    store = new RedisSessionStore(redis, prefix);
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('saves, reads, touches and deletes a record under its prefix', async () => {
    await store.ping();
    await store.save(record('s1'), 60_000);
    expect(await store.get('s1')).toEqual(record('s1'));
    expect(await redis.pttl(`${prefix}session:s1`)).toBeGreaterThan(59_000);
    expect(await store.touch('s1', 120_000)).toBe(true);
    expect(await redis.pttl(`${prefix}session:s1`)).toBeGreaterThan(119_000);
    await store.delete('s1');
    expect(await store.get('s1')).toBeUndefined();
    expect(await store.touch('s1', 1_000)).toBe(false);
  });

  it('lets a record expire by itself', async () => {
    await store.save(record('s2'), 150);
    await new Promise((r) => setTimeout(r, 300));
    expect(await store.get('s2')).toBeUndefined();
  });

  it('treats a damaged value as an unknown session', async () => {
    await redis.set(`${prefix}session:s3`, '{not json', 'PX', 10_000);
    expect(await store.get('s3')).toBeUndefined();
  });

  it('counts open sessions in all and per owner, forgetting deleted and expired ones', async () => {
    const counted = new RedisSessionStore(redis, `${prefix}count:`);
    const owned = (id: string, key: string) => ({ ...record(id), owner: { subject: key, key } });
    await counted.save(owned('c1', 'alice'), 60_000);
    await counted.save(owned('c2', 'alice'), 60_000);
    await counted.save(owned('c3', 'bob'), 150);
    expect(await counted.countOpen()).toBe(3);
    expect(await counted.countOpen('alice')).toBe(2);
    await counted.delete('c1');
    await new Promise((r) => setTimeout(r, 300));
    expect(await counted.countOpen('alice')).toBe(1);
    expect(await counted.countOpen('bob')).toBe(0);
    expect(await counted.countOpen()).toBe(1);
  });
});
