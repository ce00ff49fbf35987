import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { InMemoryTaskStore } from './in-memory-task.store';
import { RedisTaskStore } from './redis-task.store';
import { McpTaskRecord, McpTaskStore } from './task.store';

/* What the task store contract suites share (task-store.spec.ts, task-store-caps.spec.ts): a task factory, roomy
   caps, and both stores with a second replica each, on the machine's Redis (CI starts one when absent) under a key
   prefix of the suite's own, removed afterwards. For specs only (@internal). */

export const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

export /** A task with every required field; empty objects on purpose (they must come back as objects, not arrays). */
function task(over: Partial<McpTaskRecord> = {}): McpTaskRecord {
  const now = Date.now();
  return {
    id: randomBytes(16).toString('base64url'),
    owner: 'alice',
    tool: 'search',
    arguments: { q: 'tickets', filters: {} },
    caller: {
      protocolVersion: '2025-11-25',
      transport: 'http',
      clientCapabilities: { elicitation: {} },
      clientInfo: { name: 'client', version: '1.0.0' },
      principal: { subject: 'alice', scopes: ['read'], claims: {} },
    },
    status: 'working',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 60_000,
    pollIntervalMs: 1_000,
    deadline: now + 30_000,
    answers: {},
    inputRequests: {},
    asked: [],
    attempts: 1,
    ...over,
  };
}

export const roomy = { perOwner: 100, total: 1_000, keptPerOwner: 1_000, keptTotal: 10_000 };

/** A store and a second replica sharing its state (in memory: the same store; Redis: another connection). */
export interface Replicas {
  store: McpTaskStore;
  other: McpTaskStore;
}

/**
 * Both implementations, each `make()` giving fresh stores (in Redis under a fresh prefix: the deployment-wide counts
 * start at zero). The suite registers `open` and `close` (beforeAll/afterAll): Redis connections for two replicas,
 * and the removal of the suite's keys. Free of jest's globals, so it builds with the library.
 */
export function taskStoreImplementations() {
  const prefix = `test:tasks:${randomBytes(6).toString('hex')}:`;
  let redis: Redis;
  let redis2: Redis;
  const open = () => {
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    redis2 = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  };
  const close = async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await Promise.all([redis.quit(), redis2.quit()]);
  };
  let run = 0;
  const implementations: [string, () => Replicas][] = [
    [
      'InMemoryTaskStore',
      () => {
        const store = new InMemoryTaskStore();
        return { store, other: store };
      },
    ],
    [
      'RedisTaskStore',
      () => {
        const p = `${prefix}${++run}:`;
        return { store: new RedisTaskStore(redis, p), other: new RedisTaskStore(redis2, p) };
      },
    ],
  ];
  return { implementations, redis: () => redis, prefix, open, close };
}
