import type { ChainableCommander } from 'ioredis';
import { probeRedisWrites } from './redis-write.probe';
import type { RedisClient } from './redis-client.factory';
import { McpSessionRecord, McpSessionStore } from './session.store';

/** Runs a MULTI and returns each command's result, or throws the first error. */
async function exec(batch: ChainableCommander): Promise<unknown[]> {
  const results = (await batch.exec()) ?? [];
  for (const [error] of results) if (error) throw error;
  return results.map(([, value]) => value);
}

/**
 * Session metadata in Redis, one JSON string per session under `<prefix>session:<id>` with a sliding expiry
 * (`SET ... PX`, `PEXPIRE`): any replica can serve any session, and a session deleted or expired anywhere is gone
 * everywhere (each replica checks a session it holds at most once a second, `shared`).
 * Open sessions are also counted (`countOpen`), so the session caps hold for the whole deployment.
 */
export class RedisSessionStore implements McpSessionStore {
  readonly shared = true;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix = 'mcp:',
  ) {}

  private key(id: string): string {
    return `${this.prefix}session:${id}`;
  }

  async get(id: string): Promise<McpSessionRecord | undefined> {
    const raw = await this.redis.get(this.key(id));
    if (raw === null) return undefined;
    try {
      return JSON.parse(raw) as McpSessionRecord;
    } catch {
      return undefined; // not ours, or damaged: the session is treated as unknown
    }
  }

  async save(record: McpSessionRecord, ttlMs: number): Promise<void> {
    const batch = this.redis
      .multi()
      .set(this.key(record.id), JSON.stringify(record), 'PX', ttlMs)
      .zadd(this.openKey, Date.now() + ttlMs, record.id);
    if (record.owner?.key)
      batch.sadd(this.ownerKey(record.owner.key), record.id).pexpire(this.ownerKey(record.owner.key), ttlMs);
    await exec(batch);
  }

  async touch(id: string, ttlMs: number): Promise<boolean> {
    const [touched] = await exec(
      this.redis
        .multi()
        .pexpire(this.key(id), ttlMs)
        .zadd(this.openKey, 'XX', Date.now() + ttlMs, id),
    );
    return touched === 1;
  }

  async delete(id: string): Promise<void> {
    await exec(this.redis.multi().del(this.key(id)).zrem(this.openKey, id));
  }

  /**
   * All open sessions: a sorted set scored by expiry (expired ones trimmed first). One owner's: its set of session
   * ids, each checked to still exist (the set is at most about the per-caller cap, so this stays small).
   */
  async countOpen(ownerKey?: string): Promise<number> {
    if (ownerKey === undefined) {
      const [, count] = await exec(
        this.redis.multi().zremrangebyscore(this.openKey, '-inf', Date.now()).zcard(this.openKey),
      );
      return count as number;
    }
    const ids = await this.redis.smembers(this.ownerKey(ownerKey));
    if (ids.length === 0) return 0;
    const exists = await exec(ids.reduce((b, id) => b.exists(this.key(id)), this.redis.multi()));
    const gone = ids.filter((_, i) => exists[i] === 0);
    if (gone.length) await this.redis.srem(this.ownerKey(ownerKey), ...gone);
    return ids.length - gone.length;
  }

  private get openKey(): string {
    return `${this.prefix}sessions:open`;
  }

  private ownerKey(key: string): string {
    return `${this.prefix}sessions:owner:${key}`;
  }

  /** Readiness: a write (a Redis at maxmemory answers PING but refuses writes). */
  async ping(): Promise<void> {
    await probeRedisWrites(this.redis, `${this.prefix}ready:sessions`);
  }
}
