import type { RedisClient } from './redis-client.factory';

/** How long a counter outlives its last refresh: slots held by a replica that died free themselves. */
export const SLOT_TTL_MS = 10 * 60_000;
/** How long a replica keeps a slot its caller freed, for that caller's next call here, before giving it back. */
export const SLOT_KEEP_MS = 50;

/** How long a replica waits before trying again to give back slots Redis did not take back. */
const GIVE_BACK_RETRY_MS = 1_000;

/**
 * Takes a slot when fewer than ARGV[1] are held and answers the count with it (0: refused); keeps the counter from
 * living forever (ARGV[2] ms).
 */
const ACQUIRE = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n >= tonumber(ARGV[1]) then return 0 end
n = redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return n`;
/** Gives ARGV[1] slots back, never below zero (DECRBY keeps the expiry). */
const RELEASE = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n <= tonumber(ARGV[1]) then redis.call('DEL', KEYS[1]) else redis.call('DECRBY', KEYS[1], ARGV[1]) end
return 1`;

/** The scripts as ioredis exposes them once defined (sent as EVALSHA; the text only on NOSCRIPT). */
interface SlotCommands {
  mcpSlotAcquire(key: string, max: number, ttlMs: number): Promise<number>;
  mcpSlotRelease(key: string, count: number): Promise<number>;
  pexpire(key: string, ms: number): Promise<number>;
}

/**
 * What this replica holds of one counter: `held` slots counted in Redis, `used` of them by running calls; `counted`
 * is the deployment's count its last take saw, against the limit `max`.
 */
interface Holding {
  held: number;
  used: number;
  counted: number;
  max: number;
  refreshed: number;
  timer?: NodeJS.Timeout;
}

/**
 * Concurrency slots counted in Redis for the whole deployment, kept briefly by the replica that used them: a slot
 * its caller frees stays here for {@link SLOT_KEEP_MS} for that caller's next call, so a busy caller costs a round
 * trip per new slot rather than two per call. In flight never exceeds the limit (a kept slot is still counted).
 * A slot is kept only when the deployment had another free one when it was taken, so a caller at its limit (a
 * tool with `maxConcurrent: 1`, say, called in turn through a round-robin balancer) gets its slot back at once;
 * below that, another replica may see a kept slot taken for those milliseconds. Kept slots go back on close.
 */
export class RedisConcurrencySlots {
  private readonly holdings = new Map<string, Holding>();
  private readonly redis: SlotCommands;
  private closed = false;

  constructor(
    client: RedisClient,
    private readonly prefix: string,
    private readonly keepMs = SLOT_KEEP_MS,
    private readonly ttlMs = SLOT_TTL_MS,
  ) {
    client.defineCommand('mcpSlotAcquire', { numberOfKeys: 1, lua: ACQUIRE });
    client.defineCommand('mcpSlotRelease', { numberOfKeys: 1, lua: RELEASE });
    this.redis = client as unknown as SlotCommands;
  }

  async acquire(key: string, max: number): Promise<boolean> {
    if (this.reuse(key)) return true;
    const counted = await this.redis.mcpSlotAcquire(this.counter(key), max, this.ttlMs);
    // Refused: a call here may have freed a slot while the script ran.
    if (counted === 0) return this.reuse(key);
    const holding = this.holdings.get(key) ?? { held: 0, used: 0, counted, max, refreshed: 0 };
    holding.held++;
    holding.used++;
    holding.counted = counted;
    holding.max = max;
    holding.refreshed = Date.now();
    this.holdings.set(key, holding);
    return true;
  }

  async release(key: string): Promise<void> {
    const holding = this.holdings.get(key);
    if (!holding) {
      // Not taken here (a release too many): the counter still never goes below zero.
      await this.redis.mcpSlotRelease(this.counter(key), 1);
      return;
    }
    // A release too many while slots are kept here: giving one back would uncount a slot this replica still holds.
    if (holding.used === 0) return;
    holding.used--;
    if (this.closed || holding.counted >= holding.max) await this.giveBack(key);
    else holding.timer ??= this.later(key, this.keepMs);
  }

  /** Gives every kept slot back; from now on a freed slot goes back at once. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.holdings.keys()].map((key) => this.giveBack(key).catch(() => undefined)));
  }

  private async giveBack(key: string): Promise<void> {
    const holding = this.holdings.get(key);
    if (!holding) return;
    clearTimeout(holding.timer);
    holding.timer = undefined;
    const spare = holding.held - holding.used;
    if (spare <= 0) return;
    holding.held -= spare;
    if (holding.held === 0) this.holdings.delete(key);
    try {
      await this.redis.mcpSlotRelease(this.counter(key), spare);
    } catch (error) {
      // Still counted in Redis: hold them again and retry, rather than leave them counted with nobody to free them.
      const again = this.holdings.get(key) ?? { ...holding, held: 0, used: 0 };
      again.held += spare;
      this.holdings.set(key, again);
      if (!this.closed) again.timer ??= this.later(key, Math.max(this.keepMs, GIVE_BACK_RETRY_MS));
      throw error;
    }
  }

  private later(key: string, ms: number): NodeJS.Timeout {
    return setTimeout(() => void this.giveBack(key).catch(() => undefined), ms).unref();
  }

  /** Takes a slot kept here, if one is free. */
  private reuse(key: string): boolean {
    const kept = this.holdings.get(key);
    if (!kept || kept.used >= kept.held) return false;
    this.refresh(key, kept);
    kept.used++;
    return true;
  }

  /** A counter in constant use here is never written to: push its expiry back before it lapses. */
  private refresh(key: string, holding: Holding): void {
    const now = Date.now();
    if (now - holding.refreshed < this.ttlMs / 2) return;
    holding.refreshed = now;
    // In a promise: ioredis may throw synchronously (a Cluster slot not mapped yet), and a take must not fail on it.
    void Promise.resolve()
      .then(() => this.redis.pexpire(this.counter(key), this.ttlMs))
      .catch(() => undefined);
  }

  private counter(key: string): string {
    return `${this.prefix}slots:${key}`;
  }
}
