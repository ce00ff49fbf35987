import type { RedisClient } from './redis-client.factory';

/** How long a counter outlives its last refresh: slots held by a replica that died free themselves. */
export const SLOT_TTL_MS = 10 * 60_000;
/** How long a replica keeps a slot its caller freed, for that caller's next call here, before giving it back. */
export const SLOT_KEEP_MS = 50;

/** Takes a slot when fewer than ARGV[1] are held; keeps the counter from living forever (ARGV[2] ms). */
const ACQUIRE = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n >= tonumber(ARGV[1]) then return 0 end
redis.call('INCR', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;
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

/** What this replica holds of one counter: `held` slots counted in Redis, `used` of them by running calls. */
interface Holding {
  held: number;
  used: number;
  refreshed: number;
  timer?: NodeJS.Timeout;
}

/**
 * Concurrency slots counted in Redis for the whole deployment, kept briefly by the replica that used them: a slot
 * its caller frees stays here for {@link SLOT_KEEP_MS} for that caller's next call, so a busy caller costs a round
 * trip per new slot rather than two per call. In flight never exceeds the limit (a kept slot is still counted);
 * the price is that for those milliseconds another replica sees the slot taken. Kept slots go back on close.
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
    const kept = this.holdings.get(key);
    if (kept && kept.used < kept.held) {
      kept.used++;
      this.refresh(key, kept);
      return true;
    }
    if ((await this.redis.mcpSlotAcquire(this.counter(key), max, this.ttlMs)) !== 1) return false;
    const holding = this.holdings.get(key) ?? { held: 0, used: 0, refreshed: 0 };
    holding.held++;
    holding.used++;
    holding.refreshed = Date.now();
    this.holdings.set(key, holding);
    return true;
  }

  async release(key: string): Promise<void> {
    const holding = this.holdings.get(key);
    if (!holding || holding.used === 0) {
      // Not taken here (a release too many): the counter still never goes below zero.
      await this.redis.mcpSlotRelease(this.counter(key), 1);
      return;
    }
    holding.used--;
    if (this.closed) await this.giveBack(key);
    else holding.timer ??= setTimeout(() => void this.giveBack(key).catch(() => undefined), this.keepMs).unref();
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
    await this.redis.mcpSlotRelease(this.counter(key), spare);
  }

  /** A counter in constant use here is never written to: push its expiry back before it lapses. */
  private refresh(key: string, holding: Holding): void {
    const now = Date.now();
    if (now - holding.refreshed < this.ttlMs / 2) return;
    holding.refreshed = now;
    this.redis.pexpire(this.counter(key), this.ttlMs).catch(() => undefined);
  }

  private counter(key: string): string {
    return `${this.prefix}slots:${key}`;
  }
}
