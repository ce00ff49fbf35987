import { RateLimiterMemory } from 'rate-limiter-flexible';
import { LimitVerdict, McpLimitStore } from './limit.store';

/** The default store: `rate-limiter-flexible`'s in-memory limiter and a counter per key. */
export class InMemoryLimitStore implements McpLimitStore {
  private readonly limiters = new Map<string, RateLimiterMemory>();
  private readonly running = new Map<string, number>();

  async consume(key: string, points: number, durationSec: number, cost = 1): Promise<LimitVerdict> {
    const id = `${points}/${durationSec}`;
    let limiter = this.limiters.get(id);
    if (!limiter) this.limiters.set(id, (limiter = new RateLimiterMemory({ points, duration: durationSec })));
    try {
      await limiter.consume(key, cost);
      return { ok: true };
    } catch (rejection) {
      const ms = (rejection as { msBeforeNext?: number }).msBeforeNext ?? durationSec * 1000;
      return { ok: false, retryAfterSec: Math.max(1, Math.ceil(ms / 1000)) };
    }
  }

  async acquire(key: string, max: number): Promise<boolean> {
    const n = this.running.get(key) ?? 0;
    if (n >= max) return false;
    this.running.set(key, n + 1);
    return true;
  }

  /** In process: always reachable. */
  async ping(): Promise<void> {}

  async release(key: string): Promise<void> {
    const n = (this.running.get(key) ?? 1) - 1;
    if (n <= 0) this.running.delete(key);
    else this.running.set(key, n);
  }
}
