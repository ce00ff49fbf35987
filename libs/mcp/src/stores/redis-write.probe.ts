import type { RedisClient } from './redis-client.factory';

/** How long the probe's key lives: it only has to be written, never read. */
const PROBE_TTL_MS = 10_000;

/**
 * The readiness probe of a Redis store: a small write, not a `PING`. A Redis at `maxmemory` with `noeviction` (as the
 * project ships it) still answers `PING` but refuses every write with `OOM`, and then sessions, tasks and limits all
 * fail: `/ready` must say so, so the replica leaves the load balancer and the alert names the cause.
 * @internal
 */
export async function probeRedisWrites(redis: RedisClient, key: string): Promise<void> {
  try {
    await redis.set(key, '1', 'PX', PROBE_TTL_MS);
  } catch (error) {
    const message = (error as Error).message ?? String(error);
    if (/^OOM\b/.test(message)) throw new Error('Redis refuses writes: it is at maxmemory (OOM)', { cause: error });
    throw error;
  }
}
