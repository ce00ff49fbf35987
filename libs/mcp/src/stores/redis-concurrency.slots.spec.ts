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
  const count = (key: string) => redis.zcard(`${prefix}slotset:${key}`);

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
    const [a, b, c] = [replica(100), replica(100), replica(100)];
    expect(await a.acquire('s:ben', 2)).toBe(true); // one of two: kept when freed
    expect(await b.acquire('s:ben', 2)).toBe(true);
    await a.release('s:ben');
    expect(await c.acquire('s:ben', 2)).toBe(false);
    await sleep(250);
    expect(await count('s:ben')).toBe(1);
    expect(await c.acquire('s:ben', 2)).toBe(true);
    await Promise.all([b.release('s:ben'), c.release('s:ben')]);
  });

  it('gives a slot back at once when the caller is at its limit (maxConcurrent 1, calls in turn on two replicas)', async () => {
    const [a, b] = [replica(60_000), replica(60_000)];
    for (let i = 0; i < 6; i++) {
      const here = i % 2 ? b : a;
      expect(await here.acquire('s:bo', 1)).toBe(true);
      await here.release('s:bo');
    }
    expect(await count('s:bo')).toBe(0);
  });

  it('holds on to slots Redis did not take back, and gives them back later', async () => {
    const slots = replica(50);
    const gives = jest.spyOn(redis as unknown as { mcpSlotRelease: () => Promise<number> }, 'mcpSlotRelease');
    gives.mockRejectedValueOnce(new Error('Connection is closed.'));
    try {
      expect(await slots.acquire('s:bea', 3)).toBe(true);
      await slots.release('s:bea');
      await sleep(200); // the first give-back failed: the slot is still counted, and still held here
      expect(await count('s:bea')).toBe(1);
      expect(await slots.acquire('s:bea', 1)).toBe(true); // reused here, no new take
      await slots.release('s:bea');
      await sleep(1_300); // the retry
      expect(await count('s:bea')).toBe(0);
    } finally {
      gives.mockRestore();
    }
  });

  it('ignores a release too many while slots are kept here (it would uncount a slot still held)', async () => {
    const slots = replica(60_000);
    expect(await slots.acquire('s:bill', 3)).toBe(true);
    await slots.release('s:bill');
    await slots.release('s:bill');
    expect(await count('s:bill')).toBe(1);
    expect(await slots.acquire('s:bill', 1)).toBe(true);
    await slots.close();
    await slots.release('s:bill');
    expect(await count('s:bill')).toBe(0);
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

  it('renews the slots it holds, so a long call keeps its slot past the lease time', async () => {
    // A 3 s lease renewed every second: past 3 s only renewal keeps it, and a busy CI machine that stalls this
    // process for a second or so (other suites' servers on two cores) still renews it in time.
    const [a, b] = [replica(50, 3_000), replica(50, 3_000)];
    expect(await a.acquire('s:eve', 1)).toBe(true);
    const lapsesAt = Number(await redis.zrange(`${prefix}slotset:s:eve`, 0, 0, 'WITHSCORES').then((r) => r[1]));
    await sleep(4_000);
    expect(await count('s:eve')).toBe(1);
    const renewedTo = Number(await redis.zrange(`${prefix}slotset:s:eve`, 0, 0, 'WITHSCORES').then((r) => r[1]));
    expect(renewedTo).toBeGreaterThan(lapsesAt + 2_000);
    expect(await b.acquire('s:eve', 1)).toBe(false);
    await a.release('s:eve');
    expect(await b.acquire('s:eve', 1)).toBe(true);
    await b.release('s:eve');
  });

  it("frees a dead replica's slot after the lease time, even while other replicas keep taking slots", async () => {
    // A replica that died holding a slot: its lease in the set, with nobody to renew or give it back.
    await redis.eval(
      "local t = redis.call('TIME') redis.call('ZADD', KEYS[1], t[1] * 1000 + math.floor(t[2] / 1000) + 300, 'dead:1')",
      1,
      `${prefix}slotset:s:fay`,
    );
    const live = replica(0, 300);
    expect(await live.acquire('s:fay', 2)).toBe(true);
    expect(await live.acquire('s:fay', 2)).toBe(false); // the dead replica's slot still counts
    for (const until = Date.now() + 600; Date.now() < until; await sleep(20)) {
      await live.release('s:fay');
      expect(await live.acquire('s:fay', 2)).toBe(true);
    }
    expect(await live.acquire('s:fay', 2)).toBe(true); // its slot lapsed: two are free again
    // The dead replica's lease is gone from the set (the live one's own 300 ms leases may lapse too on a machine that
    // stalls this process: counting them would measure the machine, not the cleanup).
    expect(await redis.zscore(`${prefix}slotset:s:fay`, 'dead:1')).toBeNull();
    await Promise.all([live.release('s:fay'), live.release('s:fay')]);
  });

  it('stops handing out a kept slot that Redis no longer counts (lapsed, or lost in a failover)', async () => {
    const slots = replica(60_000, 600);
    expect(await slots.acquire('s:gus', 3)).toBe(true);
    await slots.release('s:gus'); // kept here
    await redis.del(`${prefix}slotset:s:gus`); // what a failover to a replica that missed the take looks like
    await sleep(400); // a renewal (every 200 ms) finds it gone
    expect(await slots.acquire('s:gus', 3)).toBe(true);
    expect(await count('s:gus')).toBe(1); // a fresh take, counted; not the lost slot reused
    await slots.release('s:gus');
  });
});
