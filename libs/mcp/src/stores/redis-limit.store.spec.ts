import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { RedisLimitStore } from './redis-limit.store';
import { createRedisClient } from './redis-client.factory';

// The machine's Redis; every run on its own key prefix, removed afterwards.
const prefix = `test:${randomBytes(6).toString('hex')}:`;

describe('RedisLimitStore (real Redis)', () => {
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true });
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it("takes a caller's first call while other commands wait in an auto-pipeline (no crash, ioredis#1931)", async () => {
    const pipelined = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { enableAutoPipelining: true });
    const crashes: Error[] = [];
    const onCrash = (e: Error) => crashes.push(e);
    process.on('uncaughtException', onCrash);
    try {
      await pipelined.ping();
      const store = new RedisLimitStore(pipelined, prefix);
      // A command queued on this turn's auto-pipeline, then the first call of a new budget on the same turn.
      const pending = pipelined.get(`${prefix}unrelated`);
      const verdict = store.consume('first-caller', 10, 60);
      expect(await Promise.all([pending, verdict])).toEqual([null, { ok: true }]);
      await new Promise((r) => setTimeout(r, 50));
      expect(crashes).toEqual([]);
    } finally {
      process.off('uncaughtException', onCrash);
      pipelined.disconnect();
    }
  });

  it('shares one rate budget between two stores (two replicas)', async () => {
    const a = new RedisLimitStore(redis, prefix);
    const b = new RedisLimitStore(redis, prefix);
    const verdicts = [];
    for (let i = 0; i < 6; i++) verdicts.push(await (i % 2 ? a : b).consume('s:alice', 4, 60));
    expect(verdicts.filter((v) => v.ok)).toHaveLength(4);
    expect(verdicts[5]).toEqual({ ok: false, retryAfterSec: expect.any(Number) });
    expect((await a.consume('s:bob', 4, 60)).ok).toBe(true);
  });

  it('takes weighted costs (bytes) from a shared budget, refusing a cost larger than what is left', async () => {
    const a = new RedisLimitStore(redis, prefix);
    const b = new RedisLimitStore(redis, prefix);
    expect((await a.consume('bytes:alice', 10_000, 60, 6_000)).ok).toBe(true);
    expect((await b.consume('bytes:alice', 10_000, 60, 4_000)).ok).toBe(true);
    expect((await b.consume('bytes:alice', 10_000, 60, 1)).ok).toBe(false);
    expect((await a.consume('bytes:bob', 10_000, 60, 10_001)).ok).toBe(false);
  });

  it('takes big budgets in leases: never more than the budget for the deployment, one round trip per lease', async () => {
    const a = new RedisLimitStore(redis, prefix);
    const b = new RedisLimitStore(redis, prefix);
    let allowed = 0;
    for (let i = 0; i < 250; i++) if ((await (i % 2 ? a : b).consume('s:erin', 200, 60)).ok) allowed++;
    expect(allowed).toBeLessThanOrEqual(200);
    expect(allowed).toBeGreaterThanOrEqual(196); // at most a lease (2) per replica unspent
    // Leases are counted in Redis when taken: the shared counter reached the budget.
    const counted = Number(await redis.get(`${prefix}rate:200/60:s:erin`));
    expect(counted).toBeGreaterThanOrEqual(200);
  });

  it('shares concurrency slots, and gives them back', async () => {
    const a = new RedisLimitStore(redis, prefix);
    const b = new RedisLimitStore(redis, prefix);
    expect(await a.acquire('s:carol', 2)).toBe(true);
    expect(await b.acquire('s:carol', 2)).toBe(true);
    expect(await a.acquire('s:carol', 2)).toBe(false);
    await b.release('s:carol');
    await b.onModuleDestroy(); // b's freed slot goes back now rather than after SLOT_KEEP_MS
    expect(await a.acquire('s:carol', 2)).toBe(true);
    await a.release('s:carol');
    await a.release('s:carol');
    await a.onModuleDestroy();
    await a.release('s:carol'); // one too many: nothing to give back
    expect(await redis.exists(`${prefix}slotset:s:carol`)).toBe(0);
    expect(await redis.pttl(`${prefix}slotset:s:dave`)).toBe(-2);
    await a.acquire('s:dave', 1);
    expect(await redis.pttl(`${prefix}slotset:s:dave`)).toBeGreaterThan(0); // the set expires
  });

  it('counts slots exactly when many takes leave in one write (the pipelined client the module creates)', async () => {
    const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    const client = await createRedisClient({ url, sentinels: [], sentinelName: '', clusterNodes: [] });
    try {
      expect((client as Redis).options.enableAutoPipelining).toBe(true);
      const store = new RedisLimitStore(client, prefix);
      const taken = await Promise.all(Array.from({ length: 40 }, () => store.acquire('s:frank', 10)));
      expect(taken.filter(Boolean)).toHaveLength(10);
      await Promise.all(Array.from({ length: 10 }, () => store.release('s:frank')));
      await store.onModuleDestroy();
      await Promise.all(Array.from({ length: 2 }, () => store.release('s:frank'))); // too many: nothing to give back
      expect(await redis.exists(`${prefix}slotset:s:frank`)).toBe(0);
      expect(await store.acquire('s:frank', 1)).toBe(true);
      await store.release('s:frank');
      expect(await redis.exists(`${prefix}slotset:s:frank`)).toBe(0);
    } finally {
      client.disconnect();
    }
  });

  it('throws (the limiter then fails closed) when Redis cannot be reached', async () => {
    const down = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    const store = new RedisLimitStore(down, prefix);
    await expect(store.consume('s:x', 1, 60)).rejects.toThrow();
    await expect(store.acquire('s:x', 1)).rejects.toThrow();
    down.disconnect();
  });
});
