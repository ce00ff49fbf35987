import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { InMemoryMessageBus } from './in-memory-message.bus';
import { RedisMessageBus } from './redis-message.bus';

const until = async (check: () => boolean) => {
  const end = Date.now() + 3_000;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
};

describe('message buses', () => {
  it('in memory: delivers a copy to every subscriber of the topic, on a later tick', async () => {
    const bus = new InMemoryMessageBus();
    const got: unknown[] = [];
    await bus.subscribe('t', (m) => got.push(m));
    await bus.subscribe('t', (m) => got.push(m));
    const message = { uri: 'x://1' };
    void bus.publish('t', message);
    void bus.publish('other', { uri: 'x://2' });
    expect(got).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(got).toEqual([message, message]);
    expect(got[0]).not.toBe(message);
  });

  it('Redis (real): every replica, the publishing one included, receives what is published', async () => {
    const prefix = `test:${randomBytes(6).toString('hex')}:`;
    const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    const a = new RedisMessageBus(redis, prefix);
    const b = new RedisMessageBus(redis, prefix);
    try {
      const got: string[] = [];
      await a.subscribe('cancel', (m) => got.push(`a:${(m as { id: string }).id}`));
      await b.subscribe('cancel', (m) => got.push(`b:${(m as { id: string }).id}`));
      await a.publish('cancel', { id: '7' });
      await until(() => got.length === 2);
      expect(got.sort()).toEqual(['a:7', 'b:7']);
    } finally {
      await a.onApplicationShutdown();
      await b.onApplicationShutdown();
      redis.disconnect();
    }
  });
});
