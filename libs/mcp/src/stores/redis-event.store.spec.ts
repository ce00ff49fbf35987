import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { RedisEventStore } from './redis-event.store';

// The machine's Redis; every run on its own key prefix, removed afterwards.
const prefix = `test:${randomBytes(6).toString('hex')}:`;
const msg = (n: number) =>
  JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progress: n } });
const settled = () => new Promise((r) => setTimeout(r, 50)); // writes go out without waiting

describe('RedisEventStore (real Redis)', () => {
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('replays on another replica what one replica wrote, after the last seen id, in order', async () => {
    const writer = new RedisEventStore(redis, prefix);
    const reader = new RedisEventStore(redis, prefix);
    writer.open('st1', 'sess-a');
    const ids = [1, 2, 3, 4].map((n) => writer.append('st1', msg(n)));
    expect(ids).toEqual(['st1_1', 'st1_2', 'st1_3', 'st1_4']);
    await settled();
    expect(await reader.replayAfter('st1_2', 'sess-a')).toEqual({
      streamId: 'st1',
      complete: false,
      events: [
        ['st1_3', msg(3)],
        ['st1_4', msg(4)],
      ],
    });
    expect(await reader.replayAfter('st1_2', 'sess-b')).toBeUndefined();
    expect(await reader.replayAfter('nope_1', 'sess-a')).toBeUndefined();
    writer.complete('st1');
    await settled();
    expect((await reader.replayAfter('st1_4', 'sess-a'))!).toEqual({ streamId: 'st1', complete: true, events: [] });
    expect(await redis.pttl(`${prefix}events:st1`)).toBeLessThanOrEqual(5 * 60_000);
  });

  it("caps a stream at about maxEventsPerStream, and drops a session's open streams when it ends", async () => {
    const store = new RedisEventStore(redis, prefix, 60_000, 100);
    store.open('st2', 'sess-c');
    for (let n = 1; n <= 1_000; n++) store.append('st2', msg(n));
    await settled();
    const length = await redis.xlen(`${prefix}events:st2`);
    expect(length).toBeGreaterThanOrEqual(100);
    expect(length).toBeLessThan(300);
    store.dropSession('sess-c');
    await settled();
    expect(await redis.exists(`${prefix}events:st2`, `${prefix}stream:st2`, `${prefix}streams:sess-c`)).toBe(0);
  });
});
