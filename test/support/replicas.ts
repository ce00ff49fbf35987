import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { DESK_MAIN, RunningServer, startHttpServer } from './server-process';

/** `n` desk replica processes with the same environment (a shared store, typically). */
export function startReplicas(n: number, env: Record<string, string>): Promise<RunningServer[]> {
  return Promise.all(Array.from({ length: n }, () => startHttpServer(DESK_MAIN, env)));
}

/** Stops every replica still running (a killed one is skipped). */
export async function stopReplicas(replicas: (RunningServer | undefined)[]): Promise<void> {
  await Promise.all(replicas.map((r) => r?.stop()));
}

/**
 * The machine's Redis for one suite: a key prefix of its own and a client to look at what the replicas wrote;
 * `cleanup()` deletes the prefix's keys and disconnects.
 */
export function suiteRedis(): { prefix: string; redis: Redis; cleanup(): Promise<void> } {
  const prefix = `test:${randomBytes(6).toString('hex')}:`;
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true });
  return {
    prefix,
    redis,
    async cleanup() {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    },
  };
}
