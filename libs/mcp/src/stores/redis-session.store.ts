import type { Redis } from 'ioredis';
import { McpSessionRecord, McpSessionStore } from './session.store';

/**
 * Session metadata in Redis, one JSON string per session under `<prefix>session:<id>` with a sliding expiry
 * (`SET ... PX`, `PEXPIRE`): any replica can serve any session, and a session deleted or expired anywhere is gone
 * everywhere. Every request checks its record (`shared`), one round trip.
 */
export class RedisSessionStore implements McpSessionStore {
  readonly shared = true;

  constructor(
    private readonly redis: Redis,
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
    await this.redis.set(this.key(record.id), JSON.stringify(record), 'PX', ttlMs);
  }

  async touch(id: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.pexpire(this.key(id), ttlMs)) === 1;
  }

  async delete(id: string): Promise<void> {
    await this.redis.del(this.key(id));
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }
}
