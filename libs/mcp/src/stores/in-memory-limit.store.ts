import { RateLimiterMemory } from 'rate-limiter-flexible';
import { LimitVerdict, McpLimitStore } from './limit.store';

// The answers that carry nothing of the call, made once: a take within budget, a slot taken or refused, a release,
// cost no promise of their own (awaiting a settled promise is all the caller pays).
const TAKEN: Promise<boolean> = Promise.resolve(true);
const FULL: Promise<boolean> = Promise.resolve(false);
const DONE: Promise<void> = Promise.resolve();
const ALLOWED: LimitVerdict = { ok: true };
const allowed = (): LimitVerdict => ALLOWED;

/** The default store: `rate-limiter-flexible`'s in-memory limiter and a counter per key. */
export class InMemoryLimitStore implements McpLimitStore {
  private readonly limiters = new Map<string, RateLimiterMemory>();
  private readonly running = new Map<string, number>();

  consume(key: string, points: number, durationSec: number, cost = 1): Promise<LimitVerdict> {
    const id = `${points}/${durationSec}`;
    let limiter = this.limiters.get(id);
    if (!limiter) this.limiters.set(id, (limiter = new RateLimiterMemory({ points, duration: durationSec })));
    return limiter.consume(key, cost).then(allowed, (rejection: { msBeforeNext?: number }) => {
      const ms = rejection?.msBeforeNext ?? durationSec * 1000;
      return { ok: false, retryAfterSec: Math.max(1, Math.ceil(ms / 1000)) };
    });
  }

  acquire(key: string, max: number): Promise<boolean> {
    const n = this.running.get(key) ?? 0;
    if (n >= max) return FULL;
    this.running.set(key, n + 1);
    return TAKEN;
  }

  /** In process: always reachable. */
  ping(): Promise<void> {
    return DONE;
  }

  release(key: string): Promise<void> {
    const n = (this.running.get(key) ?? 1) - 1;
    if (n <= 0) this.running.delete(key);
    else this.running.set(key, n);
    return DONE;
  }
}
