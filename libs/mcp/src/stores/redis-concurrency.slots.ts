import { randomUUID } from 'node:crypto';
import type { RedisClient } from './redis-client.factory';

/**
 * How long a slot outlives its replica's last word: the replica renews the slots it holds every third of it, so
 * those of a replica that died (or hangs) free themselves after this long, whatever the other replicas do.
 */
export const SLOT_TTL_MS = 60_000;
/** How long a replica keeps a slot its caller freed, for that caller's next call here, before giving it back. */
export const SLOT_KEEP_MS = 50;
/** How long a replica waits before trying again to give back slots Redis did not take back. */
const GIVE_BACK_RETRY_MS = 1_000;

// Each slot is a member of a sorted set scored by when it lapses (Redis's clock, so replicas' clocks do not matter).
const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;
/**
 * Drops lapsed slots, then takes one (ARGV[3], lapsing ARGV[2] ms from now) when fewer than ARGV[1] are held;
 * answers the count with it, 0 when refused.
 */
const ACQUIRE = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local n = redis.call('ZCARD', KEYS[1])
if n >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return n + 1`;
/** Gives the slots ARGV[...] back. */
const RELEASE = `for i = 1, #ARGV do redis.call('ZREM', KEYS[1], ARGV[i]) end
return 1`;
/**
 * Renews the slots ARGV[2...] for ARGV[1] ms and answers those that are gone (lapsed while the replica could not
 * renew them, or lost in a failover): they no longer count, so the replica must stop handing them out.
 */
const RENEW = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local lost = {}
for i = 2, #ARGV do
  if redis.call('ZSCORE', KEYS[1], ARGV[i]) then
    redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[i])
  else
    lost[#lost + 1] = ARGV[i]
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return lost`;

/** The scripts as ioredis exposes them once defined (sent as EVALSHA; the text only on NOSCRIPT). */
interface SlotCommands {
  mcpSlotAcquire(key: string, max: number, ttlMs: number, member: string): Promise<number>;
  mcpSlotRelease(key: string, ...members: string[]): Promise<number>;
  mcpSlotRenew(key: string, ttlMs: number, ...members: string[]): Promise<string[]>;
}

/**
 * What this replica holds of one caller's slots: `members` counted in Redis, `used` of them by running calls;
 * `counted` is the deployment's count its last take saw, against the limit `max`.
 */
interface Holding {
  members: string[];
  used: number;
  counted: number;
  max: number;
  timer?: NodeJS.Timeout;
}

/**
 * Concurrency slots counted in Redis for the whole deployment, each a lease its replica renews, kept briefly by
 * the replica that used them: a slot its caller frees stays here for {@link SLOT_KEEP_MS} for that caller's next
 * call, so a busy caller costs a round trip per new slot rather than two per call. In flight never exceeds the
 * limit (a kept slot is still counted). A slot is kept only when the deployment had another free one when it was
 * taken, so a caller at its limit (a tool with `maxConcurrent: 1`, say, called in turn through a round-robin
 * balancer) gets its slot back at once; below that, another replica may see a kept slot taken for those
 * milliseconds. Kept slots go back on close.
 */
export class RedisConcurrencySlots {
  private readonly holdings = new Map<string, Holding>();
  private readonly redis: SlotCommands;
  private readonly replica = randomUUID().slice(0, 13);
  private taken = 0;
  private renewer?: NodeJS.Timeout;
  private closed = false;

  constructor(
    client: RedisClient,
    private readonly prefix: string,
    private readonly keepMs = SLOT_KEEP_MS,
    private readonly ttlMs = SLOT_TTL_MS,
  ) {
    client.defineCommand('mcpSlotAcquire', { numberOfKeys: 1, lua: ACQUIRE });
    client.defineCommand('mcpSlotRelease', { numberOfKeys: 1, lua: RELEASE });
    client.defineCommand('mcpSlotRenew', { numberOfKeys: 1, lua: RENEW });
    this.redis = client as unknown as SlotCommands;
  }

  async acquire(key: string, max: number): Promise<boolean> {
    if (this.reuse(key)) return true;
    const member = `${this.replica}:${++this.taken}`;
    const counted = await this.redis.mcpSlotAcquire(this.slots(key), max, this.ttlMs, member);
    // Refused: a call here may have freed a slot while the script ran.
    if (counted === 0) return this.reuse(key);
    const holding = this.holdings.get(key) ?? { members: [], used: 0, counted, max };
    holding.members.push(member);
    holding.used++;
    holding.counted = counted;
    holding.max = max;
    this.holdings.set(key, holding);
    this.renewer ??= setInterval(() => this.renew(), this.ttlMs / 3).unref();
    return true;
  }

  async release(key: string): Promise<void> {
    const holding = this.holdings.get(key);
    // A release without a take here has nothing to give back.
    if (!holding || holding.used === 0) return;
    holding.used--;
    if (this.closed || holding.counted >= holding.max) await this.giveBack(key);
    else holding.timer ??= this.later(key, this.keepMs);
  }

  /** Gives every kept slot back; from now on a freed slot goes back at once (running calls' slots are renewed). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.holdings.keys()].map((key) => this.giveBack(key).catch(() => undefined)));
  }

  private async giveBack(key: string): Promise<void> {
    const holding = this.holdings.get(key);
    if (!holding) return;
    clearTimeout(holding.timer);
    holding.timer = undefined;
    const spare = holding.members.length - holding.used;
    if (spare <= 0) {
      if (holding.members.length === 0 && holding.used === 0) this.holdings.delete(key);
      return;
    }
    const back = holding.members.splice(holding.used, spare);
    if (holding.members.length === 0) this.holdings.delete(key);
    try {
      await this.redis.mcpSlotRelease(this.slots(key), ...back);
    } catch (error) {
      // Still counted in Redis: hold them again and retry, rather than leave them counted until they lapse.
      const again = this.holdings.get(key) ?? { ...holding, members: [], used: 0 };
      again.members.push(...back);
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
    if (!kept || kept.used >= kept.members.length) return false;
    kept.used++;
    return true;
  }

  /**
   * Renews every slot held here and forgets those Redis no longer counts (the calls running on them finish; no
   * new call gets them). Stops once closed with nothing held.
   */
  private renew(): void {
    if (this.closed && this.holdings.size === 0) {
      clearInterval(this.renewer);
      this.renewer = undefined;
      return;
    }
    for (const [key, holding] of this.holdings) {
      if (holding.members.length === 0) continue;
      void Promise.resolve()
        .then(() => this.redis.mcpSlotRenew(this.slots(key), this.ttlMs, ...holding.members))
        .then((lost) => this.forget(key, lost))
        .catch(() => undefined);
    }
  }

  private forget(key: string, lost: string[]): void {
    const holding = this.holdings.get(key);
    if (!holding || lost.length === 0) return;
    const gone = new Set(lost);
    holding.members = holding.members.filter((m) => !gone.has(m));
    if (holding.members.length === 0 && holding.used === 0) this.holdings.delete(key);
  }

  private slots(key: string): string {
    return `${this.prefix}slotset:${key}`;
  }
}
