import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { BullmqTaskQueue } from './bullmq-task.queue';

/** The BullMQ queue on the machine's Redis, under a key prefix of its own. */
describe('BullmqTaskQueue', () => {
  const prefix = `test:bullmq:${randomBytes(6).toString('hex')}:`;
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  it('answers ping before it has queued or run anything (a request-only replica is ready at once)', async () => {
    const queue = await BullmqTaskQueue.open(redis, prefix, { lockMs: 1_000 });
    try {
      await expect(queue.ping()).resolves.toBeUndefined();
    } finally {
      await queue.close();
    }
  });

  it('queues a task once even when asked twice, and a worker runs it with its attempt number', async () => {
    const queue = await BullmqTaskQueue.open(redis, prefix, { lockMs: 1_000 });
    const runs: [string, number][] = [];
    let ran!: () => void;
    const done = new Promise<void>((resolve) => (ran = resolve));
    try {
      await queue.enqueue('task-1');
      await queue.enqueue('task-1');
      queue.work(async (id, attempt) => {
        runs.push([id, attempt]);
        ran();
      }, 1);
      await done;
      await new Promise((r) => setTimeout(r, 200));
      expect(runs).toEqual([['task-1', 1]]);
    } finally {
      await queue.close();
    }
  });
});
