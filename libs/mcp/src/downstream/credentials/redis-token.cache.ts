import { createCipheriv, createDecipheriv, randomBytes, randomUUID } from 'node:crypto';
import type { RedisClient } from '../../stores/redis-client.factory';
import type { McpKeyStore } from '../../stores/key.store';
import { DownstreamCredentialsError } from './downstream-credentials.error';
import { CachedToken, DEFAULT_MAX_CACHED_TOKENS, TokenCache, TokenWait, withinDeadline } from './token.cache';

/** Bounds of the Redis cache's wait for another replica's fetch. */
export interface RedisTokenCacheTiming {
  /** How long one replica holds the right to ask the issuer (SET NX PX): longer than a token request may take. */
  lockMs: number;
  /** How often a replica that did not get the lock looks for the value. */
  pollMs: number;
}

const DEFAULT_TIMING: RedisTokenCacheTiming = { lockMs: 15_000, pollMs: 50 };
// Deletes the lock only if this replica still holds it (it may have expired and been taken by another).
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
/** The fetch's own failure, told apart from Redis's on the way out (it reaches the callers as it is). */
class FetchFailed {
  constructor(readonly cause: unknown) {}
}
const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/**
 * One downstream's tokens shared by every replica (`store: 'redis'`). Keys: `<prefix>downstream:{<name>}:tok:<key>`
 * (the braces keep a downstream's keys in one Cluster slot), values sealed with AES-256-GCM under a key every replica
 * shares (the key store's `downstream-tokens`), expiring when the token stops being usable. A short lock
 * (`SET NX PX`) lets one replica ask the issuer while the others poll for the value; an index (sorted set by expiry)
 * bounds the tokens kept to `maxEntries`, the soonest to expire going first. Within a process, one Redis round per
 * key at a time whatever the number of callers.
 */
export class RedisTokenCache implements TokenCache {
  private readonly pending = new Map<string, Promise<string>>();
  private readonly base: string;

  constructor(
    private readonly redis: RedisClient,
    private readonly keys: McpKeyStore,
    private readonly downstream: string,
    prefix = 'mcp:',
    private readonly maxEntries = DEFAULT_MAX_CACHED_TOKENS,
    private readonly timing: RedisTokenCacheTiming = DEFAULT_TIMING,
  ) {
    this.base = `${prefix}downstream:{${downstream}}:`;
  }

  get(key: string, fetch: () => Promise<CachedToken>, wait: TokenWait): Promise<string> {
    let pending = this.pending.get(key);
    if (!pending) {
      pending = this.obtain(key, fetch).catch((e: unknown) => {
        if (e instanceof FetchFailed) throw e.cause;
        // Redis down (RedisConnection logs the outage) or a lock holder that never stored: -32006, as for the issuer.
        throw new DownstreamCredentialsError(
          'issuer_unavailable',
          this.downstream,
          'The shared token cache of the downstream service is unavailable',
        );
      });
      this.pending.set(key, pending);
      const forget = () => void this.pending.delete(key);
      pending.then(forget, forget);
    }
    return withinDeadline(pending, wait, this.downstream);
  }

  async delete(key: string): Promise<void> {
    await this.redis.multi().del(this.tokenKey(key)).zrem(this.indexKey(), key).exec();
  }

  /** The shared value, or the lock and a fetch, or a poll until one of them (bounded by twice the lock's life). */
  private async obtain(key: string, fetch: () => Promise<CachedToken>): Promise<string> {
    const tokenKey = this.tokenKey(key);
    const lockKey = `${this.base}lock:${key}`;
    const giveUpAt = Date.now() + 2 * this.timing.lockMs;
    for (;;) {
      const sealed = await this.redis.get(tokenKey);
      const value = sealed ? await this.open(tokenKey, sealed) : undefined;
      if (value) return value;
      const owner = randomUUID();
      if (await this.redis.set(lockKey, owner, 'PX', this.timing.lockMs, 'NX')) {
        try {
          // Read again under the lock: another replica may have stored the token and released the lock between the
          // read above and this lock, and a second fetch would ask the issuer twice for one token.
          const stored = await this.redis.get(tokenKey);
          const now = stored ? await this.open(tokenKey, stored) : undefined;
          if (now) return now;
          const token = await fetch().catch((e: unknown) => Promise.reject(new FetchFailed(e)));
          await this.store(key, tokenKey, token);
          return token.value;
        } finally {
          await this.redis.eval(RELEASE, 1, lockKey, owner).catch(() => undefined);
        }
      }
      if (Date.now() >= giveUpAt) throw new Error('the replica holding the token lock never stored a token');
      await sleep(this.timing.pollMs);
    }
  }

  private async store(key: string, tokenKey: string, token: CachedToken): Promise<void> {
    const now = Date.now();
    const ttl = Math.floor(token.usableUntil - now);
    if (ttl <= 0) return;
    const index = this.indexKey();
    const replies = (await this.redis
      .multi()
      .set(tokenKey, await this.seal(tokenKey, token.value), 'PX', ttl)
      .zremrangebyscore(index, '-inf', now)
      .zadd(index, token.usableUntil, key)
      .zcard(index)
      .zrange(index, -1, -1, 'WITHSCORES')
      .exec()) as [Error | null, unknown][] | null;
    const count = Number(replies?.[3]?.[1] ?? 0);
    const latest = Number((replies?.[4]?.[1] as string[] | undefined)?.[1] ?? token.usableUntil);
    // The index lives as long as its longest-lived token, so it never outlasts what it bounds.
    await this.redis.pexpire(index, Math.max(1, Math.ceil(latest - now)));
    const excess = count - this.maxEntries;
    if (excess > 0) {
      // The soonest to expire go: a flood of new callers never pushes the bound, and costs only short-lived entries.
      const victims = await this.redis.zrange(index, 0, excess - 1);
      if (victims.length)
        await this.redis
          .multi()
          .del(...victims.map((v) => this.tokenKey(v)))
          .zrem(index, ...victims)
          .exec();
    }
  }

  private tokenKey(key: string): string {
    return `${this.base}tok:${key}`;
  }

  private indexKey(): string {
    return `${this.base}index`;
  }

  /** `iv.tag.ciphertext` (base64url), bound to its Redis key so a value cannot be moved to another key. */
  private async seal(redisKey: string, value: string): Promise<string> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', await this.keys.sharedKey('downstream-tokens'), iv);
    cipher.setAAD(Buffer.from(redisKey));
    const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
  }

  /** The token, or undefined when the value does not open (another key, tampered): then it is fetched anew. */
  private async open(redisKey: string, sealed: string): Promise<string | undefined> {
    try {
      const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
      const decipher = createDecipheriv('aes-256-gcm', await this.keys.sharedKey('downstream-tokens'), iv);
      decipher.setAAD(Buffer.from(redisKey));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}
