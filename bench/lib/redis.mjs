// The Redis side of the bench: memory per idle session, and removing the bench's keys afterwards.
import Redis from 'ioredis';
import { openSession } from './mcp-client.mjs';

const url = () => process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function usedMemory(redis) {
  const info = await redis.info('memory');
  return Number(/^used_memory:(\d+)/m.exec(info)[1]);
}

/** Opens `n` sessions on the server at `base` and reports what they added to Redis's used_memory, per session. */
export async function redisBytesPerSession(base, n) {
  const redis = new Redis(url());
  try {
    const before = await usedMemory(redis);
    for (let i = 0; i < n; i++) await openSession(base);
    const after = await usedMemory(redis);
    return {
      sessions: n,
      usedMemoryBefore: before,
      usedMemoryAfter: after,
      bytesPerSession: Math.round((after - before) / n),
    };
  } finally {
    redis.disconnect();
  }
}

/** Deletes every key under `prefix` (SCAN, not KEYS, so a shared Redis is not blocked). */
export async function dropRedisPrefix(prefix) {
  const redis = new Redis(url());
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
