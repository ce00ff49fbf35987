import { createHash, randomUUID } from 'node:crypto';
import type { RedisClient } from './redis-client.factory';
import { IdempotencyClaim, IdempotencyClaimBounds, McpIdempotencyStore } from './idempotency.store';

// Redis's clock, so replicas' clocks do not matter.
const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;
/** A set lives as long as its longest entry. */
const STRETCH = (key: string, ttl: string) => `local left = redis.call('PTTL', ${key})
if left < tonumber(${ttl}) then redis.call('PEXPIRE', ${key}, ${ttl}) end`;

/**
 * KEYS: entry, the caller's set, the deployment's set. ARGV: fingerprint, token, running ttl, max per caller, max
 * keys, member. An existing entry answers `{state, fingerprint[, answer]}`; otherwise expired members are dropped,
 * both bounds checked (`{'full', bound, ms until the first expires}`), and the claim written (`{'claimed'}`).
 */
const CLAIM = `${NOW}
local seen = redis.call('HMGET', KEYS[1], 's', 'f', 'a')
if seen[1] then return seen end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
local bounds = { { KEYS[2], ARGV[4], 'subject' }, { KEYS[3], ARGV[5], 'deployment' } }
for _, b in ipairs(bounds) do
  if redis.call('ZCARD', b[1]) >= tonumber(b[2]) then
    local first = redis.call('ZRANGE', b[1], 0, 0, 'WITHSCORES')
    return { 'full', b[3], tostring(math.max(1, tonumber(first[2]) - now)) }
  end
end
redis.call('HSET', KEYS[1], 's', 'r', 'f', ARGV[1], 't', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[3]), ARGV[6])
redis.call('ZADD', KEYS[3], now + tonumber(ARGV[3]), ARGV[6])
${STRETCH('KEYS[2]', 'ARGV[3]')}
${STRETCH('KEYS[3]', 'ARGV[3]')}
return { 'claimed' }`;
/** KEYS as {@link CLAIM}. ARGV: token, ttl, member[, answer]: the claim, if still the token's, becomes the answer. */
const KEEP = `${NOW}
if redis.call('HGET', KEYS[1], 't') ~= ARGV[1] then return 0 end
local f = redis.call('HGET', KEYS[1], 'f')
redis.call('DEL', KEYS[1])
if ARGV[4] then
  redis.call('HSET', KEYS[1], 's', 'd', 'f', f, 'a', ARGV[4])
else
  redis.call('HSET', KEYS[1], 's', 'd', 'f', f)
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('ZADD', KEYS[2], 'XX', now + tonumber(ARGV[2]), ARGV[3])
redis.call('ZADD', KEYS[3], 'XX', now + tonumber(ARGV[2]), ARGV[3])
${STRETCH('KEYS[2]', 'ARGV[2]')}
${STRETCH('KEYS[3]', 'ARGV[2]')}
return 1`;
/** KEYS as {@link CLAIM}. ARGV: token, member: the claim is removed, if still the token's. */
const RELEASE = `if redis.call('HGET', KEYS[1], 't') ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('ZREM', KEYS[3], ARGV[2])
return 1`;

interface IdempotencyCommands {
  mcpIdemClaim(...args: (string | number)[]): Promise<(string | null)[]>;
  mcpIdemKeep(...args: (string | number)[]): Promise<number>;
  mcpIdemRelease(...args: (string | number)[]): Promise<number>;
}

const digest = (s: string) => createHash('sha256').update(s).digest('base64url');

/**
 * Idempotency keys shared by every replica. An entry is a hash `<prefix>{idempotency}:entry:<id>` holding its state
 * (`s`: `r` running, `d` done), the arguments' fingerprint (`f`), the running call's token (`t`) and the kept answer
 * (`a`); it expires with its claim or its answer. `…:subject:<caller digest>` and `…:all` list the live entries, scored
 * by expiry, for the per-caller and deployment bounds. Each operation is one script, so two replicas claiming one key
 * at once cannot both win (the `SET NX` of a hash with its bounds). Every key carries the hash tag `{idempotency}`:
 * one Cluster slot, so one script may touch the entry and both sets.
 */
export class RedisIdempotencyStore implements McpIdempotencyStore {
  private readonly scripts: IdempotencyCommands;

  constructor(
    redis: RedisClient,
    private readonly prefix = 'mcp:',
  ) {
    redis.defineCommand('mcpIdemClaim', { numberOfKeys: 3, lua: CLAIM });
    redis.defineCommand('mcpIdemKeep', { numberOfKeys: 3, lua: KEEP });
    redis.defineCommand('mcpIdemRelease', { numberOfKeys: 3, lua: RELEASE });
    this.scripts = redis as unknown as IdempotencyCommands;
  }

  async claim(
    id: string,
    subject: string,
    fingerprint: string,
    bounds: IdempotencyClaimBounds,
  ): Promise<IdempotencyClaim> {
    const token = randomUUID();
    const reply = await this.scripts.mcpIdemClaim(
      ...this.keys(id, subject),
      fingerprint,
      token,
      bounds.runningTtlMs,
      bounds.maxPerSubject,
      bounds.maxKeys,
      id,
    );
    switch (reply[0]) {
      case 'claimed':
        return { state: 'claimed', token };
      case 'full':
        return { state: 'full', bound: reply[1] as 'subject' | 'deployment', retryAfterMs: Number(reply[2]) };
      case 'r':
        return { state: 'running', fingerprint: String(reply[1]) };
      default:
        return { state: 'done', fingerprint: String(reply[1]), answer: reply[2] ?? null };
    }
  }

  async keep(id: string, subject: string, token: string, answer: string | null, ttlMs: number): Promise<void> {
    const rest = answer === null ? [] : [answer];
    await this.scripts.mcpIdemKeep(...this.keys(id, subject), token, ttlMs, id, ...rest);
  }

  async release(id: string, subject: string, token: string): Promise<void> {
    await this.scripts.mcpIdemRelease(...this.keys(id, subject), token, id);
  }

  private keys(id: string, subject: string): [string, string, string] {
    const base = `${this.prefix}{idempotency}:`;
    return [`${base}entry:${id}`, `${base}subject:${digest(subject)}`, `${base}all`];
  }
}
