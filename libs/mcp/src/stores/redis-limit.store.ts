import type { RedisClient } from './redis-client.factory';
import { probeRedisWrites } from './redis-write.probe';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { LimitVerdict, McpLimitStore } from './limit.store';
import { RedisConcurrencySlots } from './redis-concurrency.slots';

/** A lease is 1/LEASE_DIVISOR of a budget. */
const LEASE_DIVISOR = 100;
/** Callers with a lease held at once, per replica. */
const MAX_LEASES = 10_000;

/**
 * Rate and concurrency budgets shared by every replica: rates with `rate-limiter-flexible`'s Redis limiter (an
 * atomic counter per key and window, taken in leases of 1% of the budget), concurrency slots counted in Redis and
 * kept briefly by the replica that freed them (see {@link RedisConcurrencySlots}). N calls a minute means N for
 * the whole deployment, not N per replica. When Redis cannot be reached the calls throw: the limiter refuses the
 * call (fails closed), as a replica that cannot count cannot promise the limit.
 */
export class RedisLimitStore implements McpLimitStore {
  private readonly limiters = new Map<string, RateLimiterRedis>();
  private readonly leases = new Map<string, { left: number; until: number }>();
  private readonly slots: RedisConcurrencySlots;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix = 'mcp:',
  ) {
    this.slots = new RedisConcurrencySlots(redis, prefix);
    // rate-limiter-flexible defines its Lua command (`rlflxIncr`) on the client when a limiter is constructed. Done
    // lazily, on a caller's first call, the definition could come while an auto-pipeline built before it is pending:
    // ioredis then queues the command on a pipeline without it, and a TypeError in its callbacks kills the process
    // (ioredis#1931). Defined here, at boot, before any command is sent.
    new RateLimiterRedis({ storeClient: redis, keyPrefix: `${prefix}rate:boot`, points: 1, duration: 1 });
  }

  async consume(key: string, points: number, durationSec: number, cost = 1): Promise<LimitVerdict> {
    const id = `${points}/${durationSec}`;
    const now = Date.now();
    const leaseKey = `${id}|${key}`;
    const lease = this.leases.get(leaseKey);
    if (cost === 1 && lease && lease.left > 0 && now < lease.until) {
      lease.left--;
      return { ok: true };
    }
    let limiter = this.limiters.get(id);
    if (!limiter) {
      limiter = new RateLimiterRedis({
        storeClient: this.redis,
        keyPrefix: `${this.prefix}rate:${id}`,
        points,
        duration: durationSec,
      });
      this.limiters.set(id, limiter);
    }
    // A lease: 1% of the budget (at least one) taken from Redis at once and spent here, so a busy caller costs a
    // round trip per lease, not per call. Taken points are counted in Redis when leased: never more than the budget
    // passes; at most a lease per replica goes unspent when a window ends.
    // A weighted take (bytes) is counted in Redis as it is, without a lease.
    const chunk = cost === 1 ? Math.max(1, Math.floor(points / LEASE_DIVISOR)) : cost;
    try {
      const taken = await limiter.consume(key, chunk);
      if (cost === 1 && chunk > 1) this.remember(leaseKey, chunk - 1, now + taken.msBeforeNext);
      return { ok: true };
    } catch (rejection) {
      // rate-limiter-flexible rejects with its result when over the budget, with an Error when Redis failed.
      if (rejection instanceof Error) throw rejection;
      const ms = (rejection as { msBeforeNext?: number }).msBeforeNext ?? durationSec * 1000;
      return { ok: false, retryAfterSec: Math.max(1, Math.ceil(ms / 1000)) };
    }
  }

  private remember(leaseKey: string, left: number, until: number): void {
    if (this.leases.size >= MAX_LEASES) {
      const now = Date.now();
      for (const [k, l] of this.leases) if (l.until <= now || l.left === 0) this.leases.delete(k);
      if (this.leases.size >= MAX_LEASES) this.leases.clear();
    }
    this.leases.set(leaseKey, { left, until });
  }

  acquire(key: string, max: number): Promise<boolean> {
    return this.slots.acquire(key, max);
  }

  release(key: string): Promise<void> {
    return this.slots.release(key);
  }

  /** Slots this replica kept for its callers' next calls go back before the connection closes. */
  onModuleDestroy(): Promise<void> {
    return this.slots.close();
  }

  /** Readiness: a write (a Redis at maxmemory answers PING but refuses writes). */
  async ping(): Promise<void> {
    await probeRedisWrites(this.redis, `${this.prefix}ready:limits`);
  }
}
