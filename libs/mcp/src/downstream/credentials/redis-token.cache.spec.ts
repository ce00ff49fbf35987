import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import type { McpKeyStore } from '../../stores/key.store';
import { RedisTokenCache } from './redis-token.cache';
import { CachedToken, TokenWait } from './token.cache';

// The machine's Redis; every run on its own key prefix, removed afterwards.
const prefix = `test:${randomBytes(6).toString('hex')}:`;
const sealKey = randomBytes(32);
const keys: McpKeyStore = { sharedKey: () => Promise.resolve(sealKey) };
const wait = (ms = 5000): TokenWait => ({ deadline: Date.now() + ms, signal: new AbortController().signal });
const token = (value: string, lifeMs = 60_000): CachedToken => ({ value, usableUntil: Date.now() + lifeMs });
const slow = (value: string, ms = 50) => new Promise<CachedToken>((ok) => setTimeout(() => ok(token(value)), ms));

describe('RedisTokenCache (real Redis)', () => {
  let redis: Redis;
  const replica = (name = 'jira', max?: number) =>
    new RedisTokenCache(redis, keys, name, prefix, max, { lockMs: 1_000, pollMs: 10 });
  beforeAll(() => {
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true });
  });
  afterAll(async () => {
    const left = await redis.keys(`${prefix}*`);
    if (left.length) await redis.del(...left);
    redis.disconnect();
  });

  it('three replicas, 30 concurrent gets: one fetch, the others wait for the shared value', async () => {
    const fetch = jest.fn(() => slow('shared'));
    const caches = [replica(), replica(), replica()];
    const values = await Promise.all(Array.from({ length: 30 }, (_, i) => caches[i % 3].get('k1', fetch, wait())));
    expect(new Set(values)).toEqual(new Set(['shared']));
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(await redis.exists(`${prefix}downstream:{jira}:lock:k1`)).toBe(0);
  });

  it('stores the token sealed, expiring when it stops being usable; a value moved to another key is refused', async () => {
    await replica().get('k2', () => Promise.resolve(token('secret-token-value', 30_000)), wait());
    const stored = (await redis.get(`${prefix}downstream:{jira}:tok:k2`))!;
    expect(stored).not.toContain('secret-token-value');
    expect(await redis.pttl(`${prefix}downstream:{jira}:tok:k2`)).toBeGreaterThan(25_000);
    // The seal is bound to its key: copied under k3 it does not open, and k3 is fetched.
    await redis.set(`${prefix}downstream:{jira}:tok:k3`, stored, 'PX', 30_000);
    const fetch = jest.fn(() => Promise.resolve(token('own-k3')));
    expect(await replica().get('k3', fetch, wait())).toBe('own-k3');
  });

  it('a replica whose read missed a token stored just before it took the lock uses that token: no second fetch', async () => {
    await replica().get('k9', () => Promise.resolve(token('theirs')), wait());
    // This replica read before the other stored (it saw nothing), then took the lock the other had just released.
    let stale = true;
    const late = new Proxy(redis, {
      get: (target, p) => {
        if (p === 'get' && stale) return () => ((stale = false), Promise.resolve(null));
        const v = Reflect.get(target, p) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const fetch = jest.fn(() => Promise.resolve(token('second')));
    const cache = new RedisTokenCache(late, keys, 'jira', prefix, undefined, { lockMs: 1_000, pollMs: 10 });
    expect(await cache.get('k9', fetch, wait())).toBe('theirs');
    expect(stale).toBe(false);
    expect(fetch).not.toHaveBeenCalled();
    expect(await redis.exists(`${prefix}downstream:{jira}:lock:k9`)).toBe(0);
  });

  it('delete() removes the shared token: the next get fetches anew', async () => {
    const a = replica();
    await a.get('k4', () => Promise.resolve(token('old')), wait());
    await replica().delete('k4');
    expect(await a.get('k4', () => Promise.resolve(token('new')), wait())).toBe('new');
  });

  it('a failed fetch releases the lock at once: another replica fetches without waiting for it to expire', async () => {
    await expect(replica().get('k5', () => Promise.reject(new Error('issuer down')), wait())).rejects.toThrow(
      'issuer down',
    );
    const started = Date.now();
    expect(await replica().get('k5', () => Promise.resolve(token('ok')), wait())).toBe('ok');
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('a lock left by a replica that died expires, and a waiting replica then fetches itself', async () => {
    await redis.set(`${prefix}downstream:{jira}:lock:k6`, 'dead-replica', 'PX', 200);
    const fetch = jest.fn(() => Promise.resolve(token('mine')));
    expect(await replica().get('k6', fetch, wait())).toBe('mine');
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('a waiter gives up at its deadline with issuer_unavailable', async () => {
    await redis.set(`${prefix}downstream:{jira}:lock:k7`, 'busy-replica', 'PX', 1_000);
    await expect(replica().get('k7', () => slow('x'), wait(100))).rejects.toMatchObject({
      reason: 'issuer_unavailable',
    });
  });

  it('is bounded per downstream: beyond maxEntries the soonest to expire go', async () => {
    const cache = replica('bounded', 3);
    for (const [k, life] of [
      ['a', 10_000],
      ['b', 50_000],
      ['c', 40_000],
      ['d', 30_000],
    ] as const)
      await cache.get(k, () => Promise.resolve(token(k, life)), wait());
    const left = await redis.keys(`${prefix}downstream:{bounded}:tok:*`);
    expect(left.map((k) => k.split(':').pop()).sort()).toEqual(['b', 'c', 'd']);
    expect(await redis.zcard(`${prefix}downstream:{bounded}:index`)).toBe(3);
    // The index lives as long as its longest-lived token ('b'), not the last stored.
    expect(await redis.pttl(`${prefix}downstream:{bounded}:index`)).toBeGreaterThan(40_000);
  });

  it('Redis unreachable: issuer_unavailable naming the cache, never a crash', async () => {
    const gone = new Redis({ port: 1, lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
    gone.on('error', () => undefined);
    try {
      const cache = new RedisTokenCache(gone, keys, 'jira', prefix);
      await expect(cache.get('k8', () => Promise.resolve(token('x')), wait())).rejects.toMatchObject({
        reason: 'issuer_unavailable',
        message: 'The shared token cache of the downstream service is unavailable',
      });
    } finally {
      gone.disconnect();
    }
  });
});
