import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { RedisConcurrencySlots } from './redis-concurrency.slots';

// The machine's Redis; every run on its own key prefix, removed afterwards.
const prefix = `test:${randomBytes(6).toString('hex')}:`;
const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

describe('RedisConcurrencySlots (real Redis)', () => {
  let redis: Redis;
  const open: RedisConcurrencySlots[] = [];
  const replica = (keepMs?: number, ttlMs?: number) => {
    const slots = new RedisConcurrencySlots(redis, prefix, keepMs, ttlMs);
    open.push(slots);
    return slots;
  };
  const count = async (key: string) => Number((await redis.get(`${prefix}slots:${key}`)) ?? 0);

  beforeAll(() => {
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it("keeps a freed slot for the caller's next call here, without a round trip to Redis", async () => {
    const slots = replica(1_000);
    const takes = jest.spyOn(redis as unknown as { mcpSlotAcquire: () => Promise<number> }, 'mcpSlotAcquire');
    try {
      for (let i = 0; i < 20; i++) {
        expect(await slots.acquire('s:ann', 4)).toBe(true);
        await slots.release('s:ann');
      }
      expect(takes).toHaveBeenCalledTimes(1);
      expect(await count('s:ann')).toBe(1); // the kept slot is still counted for the deployment
    } finally {
      takes.mockRestore();
    }
  });

  it('gives a kept slot back after the keep time; until then another replica sees it taken', async () => {
    const a = replica(100);
    const b = replica(100);
    expect(await a.acquire('s:ben', 1)).toBe(true);
    await a.release('s:ben');
    expect(await b.acquire('s:ben', 1)).toBe(false);
    await sleep(250);
    expect(await count('s:ben')).toBe(0);
    expect(await b.acquire('s:ben', 1)).toBe(true);
    await b.release('s:ben');
  });

  it('never lets more calls run than the limit across replicas, under churn', async () => {
    const replicas = [replica(5), replica(5), replica(5)];
    const max = 4;
    let running = 0;
    let peak = 0;
    let admitted = 0;
    const caller = async (slots: RedisConcurrencySlots) => {
      for (let i = 0; i < 25; i++) {
        if (!(await slots.acquire('s:cat', max))) {
          await sleep(Math.random() * 4);
          continue;
        }
        admitted++;
        peak = Math.max(peak, ++running);
        await sleep(Math.random() * 3);
        running--;
        await slots.release('s:cat');
      }
    };
    await Promise.all(Array.from({ length: 12 }, (_, i) => caller(replicas[i % 3])));
    expect(peak).toBeLessThanOrEqual(max);
    expect(admitted).toBeGreaterThan(max);
    await Promise.all(replicas.map((r) => r.close()));
    expect(await count('s:cat')).toBe(0);
  });

  it('gives every kept slot back on close, and a slot freed after close at once', async () => {
    const slots = replica(60_000);
    expect(await slots.acquire('s:dan', 3)).toBe(true);
    expect(await slots.acquire('s:dan', 3)).toBe(true);
    await slots.release('s:dan');
    expect(await count('s:dan')).toBe(2);
    await slots.close();
    expect(await count('s:dan')).toBe(1); // the running call's slot stays counted
    await slots.release('s:dan');
    expect(await count('s:dan')).toBe(0);
  });

  it('pushes back the expiry of a counter in constant use here (it would lapse and admit too many)', async () => {
    const slots = replica(1_000, 400);
    expect(await slots.acquire('s:eve', 2)).toBe(true);
    for (const until = Date.now() + 700; Date.now() < until;) {
      await slots.release('s:eve');
      expect(await slots.acquire('s:eve', 2)).toBe(true);
      await sleep(20);
    }
    expect(await redis.pttl(`${prefix}slots:s:eve`)).toBeGreaterThan(0);
    expect(await count('s:eve')).toBe(1);
    await slots.release('s:eve');
  });
});
