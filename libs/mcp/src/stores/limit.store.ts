/** Outcome of taking one call from a budget. */
export type LimitVerdict = { ok: true } | { ok: false; retryAfterSec: number };

/**
 * Where rate and concurrency budgets live. The default keeps them in this process; a shared store
 * (Redis, in a later issue) makes them hold across replicas.
 */
export interface McpLimitStore {
  /**
   * Takes `cost` (default 1) from `key`'s budget of `points` per `durationSec`; a budget of bytes (replays, say) takes
   * their number. A take larger than what is left is refused (and, like every refused take, still counted).
   */
  consume(key: string, points: number, durationSec: number, cost?: number): Promise<LimitVerdict>;
  /** Takes a concurrency slot; false when `max` are taken. */
  acquire(key: string, max: number): Promise<boolean>;
  release(key: string): Promise<void>;
  /**
   * Readiness probe (`GET /ready`): resolves when the store can serve, rejects otherwise. Optional: without it the
   * store counts as reachable.
   */
  ping?(): Promise<void>;
}

/** Injection token of the {@link McpLimitStore}. */
export const MCP_LIMIT_STORE = Symbol('MCP_LIMIT_STORE');
