import { randomBytes } from 'node:crypto';
import type { RedisClient } from './redis-client.factory';
import { McpKeyStore } from './key.store';

/**
 * Keys every replica shares: created once with `SET NX` (the first replica wins), then read by all. They never expire;
 * rotate one by deleting it (states sealed with the old key are then refused, and their clients start over).
 */
export class RedisKeyStore implements McpKeyStore {
  private readonly cache = new Map<string, Promise<Buffer>>();

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix = 'mcp:',
  ) {}

  sharedKey(name: string): Promise<Buffer> {
    let key = this.cache.get(name);
    if (!key) {
      key = this.fetch(`${this.prefix}key:${name}`);
      // A failure (Redis down) is not remembered: the next call tries again.
      key.catch(() => this.cache.delete(name));
      this.cache.set(name, key);
    }
    return key;
  }

  private async fetch(redisKey: string): Promise<Buffer> {
    await this.redis.set(redisKey, randomBytes(32).toString('base64'), 'NX');
    const stored = await this.redis.get(redisKey);
    if (!stored) throw new Error('the shared key vanished between SET NX and GET');
    return Buffer.from(stored, 'base64');
  }
}
