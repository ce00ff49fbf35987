import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { IdempotencyClaimBounds, McpIdempotencyStore } from './idempotency.store';
import { InMemoryIdempotencyStore } from './in-memory-idempotency.store';
import { RedisIdempotencyStore } from './redis-idempotency.store';

// The machine's Redis; this run on its own key prefix, removed afterwards.
const prefix = `test:${randomBytes(6).toString('hex')}:`;
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true });
afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

const roomy: IdempotencyClaimBounds = { runningTtlMs: 60_000, maxPerSubject: 10, maxKeys: 100 };
const id = () => randomBytes(12).toString('base64url');

/** Each implementation as two replicas: two instances over one Redis; the in-memory store is one process. */
const implementations: [string, () => { a: McpIdempotencyStore; b: McpIdempotencyStore }][] = [
  [
    'InMemoryIdempotencyStore',
    () => {
      const one = new InMemoryIdempotencyStore();
      return { a: one, b: one };
    },
  ],
  [
    'RedisIdempotencyStore',
    () => {
      // Each case on its own prefix: the deployment-wide bound is counted per prefix.
      const own = `${prefix}${randomBytes(4).toString('hex')}:`;
      return { a: new RedisIdempotencyStore(redis, own), b: new RedisIdempotencyStore(redis, own) };
    },
  ],
];

describe.each(implementations)('%s (idempotency store contract)', (_name, make) => {
  let a: McpIdempotencyStore;
  let b: McpIdempotencyStore;
  beforeEach(() => ({ a, b } = make()));

  it('claims a key once: a second claim, on any replica, sees it running with its fingerprint', async () => {
    const key = id();
    expect(await a.claim(key, 'alice', 'fp1', roomy)).toEqual({ state: 'claimed', token: expect.any(String) });
    expect(await b.claim(key, 'alice', 'fp2', roomy)).toEqual({ state: 'running', fingerprint: 'fp1' });
  });

  it('of concurrent claims of one key exactly one wins', async () => {
    const key = id();
    const claims = await Promise.all([...Array(8)].map((_, i) => (i % 2 ? a : b).claim(key, 'alice', 'fp', roomy)));
    expect(claims.filter((c) => c.state === 'claimed')).toHaveLength(1);
    expect(claims.filter((c) => c.state === 'running')).toHaveLength(7);
  });

  it('keeps the answer for every replica, and a null answer (too large to keep) as done without one', async () => {
    const [k1, k2] = [id(), id()];
    const c1 = await a.claim(k1, 'alice', 'fp', roomy);
    const c2 = await a.claim(k2, 'alice', 'fp', roomy);
    if (c1.state !== 'claimed' || c2.state !== 'claimed') throw new Error('not claimed');
    await a.keep(k1, 'alice', c1.token, '{"ok":true}', 60_000);
    await a.keep(k2, 'alice', c2.token, null, 60_000);
    expect(await b.claim(k1, 'alice', 'other', roomy)).toEqual({
      state: 'done',
      fingerprint: 'fp',
      answer: '{"ok":true}',
    });
    expect(await b.claim(k2, 'alice', 'fp', roomy)).toEqual({ state: 'done', fingerprint: 'fp', answer: null });
  });

  it('releases a claim so the next call runs; a stale token neither keeps nor releases', async () => {
    const key = id();
    const first = await a.claim(key, 'alice', 'fp', roomy);
    if (first.state !== 'claimed') throw new Error('not claimed');
    await b.release(key, 'alice', 'not-the-token');
    await b.keep(key, 'alice', 'not-the-token', '"stolen"', 60_000);
    expect(await b.claim(key, 'alice', 'fp', roomy)).toEqual({ state: 'running', fingerprint: 'fp' });
    await a.release(key, 'alice', first.token);
    expect((await b.claim(key, 'alice', 'fp', roomy)).state).toBe('claimed');
  });

  it('lets a claim whose replica never answered lapse after its running ttl', async () => {
    const key = id();
    await a.claim(key, 'alice', 'fp', { ...roomy, runningTtlMs: 30 });
    let next = await b.claim(key, 'alice', 'fp', roomy);
    while (next.state === 'running') next = await b.claim(key, 'alice', 'fp', roomy);
    expect(next.state).toBe('claimed');
  });

  it('refuses a caller past its keys (not another caller), and the deployment past its keys', async () => {
    const bounds = { ...roomy, maxPerSubject: 2, maxKeys: 3 };
    expect((await a.claim(id(), 'alice', 'fp', bounds)).state).toBe('claimed');
    expect((await b.claim(id(), 'alice', 'fp', bounds)).state).toBe('claimed');
    expect(await a.claim(id(), 'alice', 'fp', bounds)).toEqual({
      state: 'full',
      bound: 'subject',
      retryAfterMs: expect.any(Number),
    });
    expect((await a.claim(id(), 'bob', 'fp', bounds)).state).toBe('claimed');
    const full = await b.claim(id(), 'carol', 'fp', bounds);
    expect(full).toEqual({ state: 'full', bound: 'deployment', retryAfterMs: expect.any(Number) });
    expect((full as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(0);
    expect((full as { retryAfterMs: number }).retryAfterMs).toBeLessThanOrEqual(60_000);
  });

  it('gives a released key back to its caller’s bound', async () => {
    const bounds = { ...roomy, maxPerSubject: 1 };
    const key = id();
    const first = await a.claim(key, 'dave', 'fp', bounds);
    if (first.state !== 'claimed') throw new Error('not claimed');
    await a.release(key, 'dave', first.token);
    expect((await b.claim(id(), 'dave', 'fp', bounds)).state).toBe('claimed');
  });
});
