/* The Lua scripts of the Redis task store (redis-task.store.ts): each runs atomically in Redis. @internal */

/** Extends an index key's expiry to `at` (never shortens it): an index lives as long as its longest-lived task. */
export const KEEP = `local function keep(key, at, now)
  local ttl = redis.call('PTTL', key)
  if ttl < 0 or now + ttl < at then redis.call('PEXPIREAT', key, at) end
end`;

/** Sums a hash's values (the weights of an owner's tasks: at most its kept tasks). */
export const SUM = `local function sum(key)
  local total = 0
  for _, v in ipairs(redis.call('HVALS', key)) do total = total + tonumber(v) end
  return total
end`;

/**
 * KEYS: record, owner index, owner's open set, deployment's open set, owner's kept set, deployment's kept set,
 * deployment's weights, owner's weights, deployment's weight sum. ARGV: id, JSON, createdAt, expiresAt, now,
 * perOwner, total, open (1/0), owner, status, keptPerOwner, keptTotal, weight, bytesPerOwner, bytesTotal (the last two
 * empty when unbounded). Drops the expired entries of every set (their weights go with them; the owner's expired ids
 * leave its index too, so an index holds only what may still live), checks the caps, then writes. A refusal is
 * `{reason, earliest expiry}` (the latter for the owner's kept caps: when a place frees up).
 */
export const CREATE = `${KEEP}
${SUM}
local now = tonumber(ARGV[5])
for _, k in ipairs({KEYS[3], KEYS[4]}) do redis.call('ZREMRANGEBYSCORE', k, '-inf', now) end
local expired = redis.call('ZRANGEBYSCORE', KEYS[6], '-inf', now)
for i = 1, #expired, 500 do
  local ids = {unpack(expired, i, math.min(i + 499, #expired))}
  local freed = 0
  for _, w in ipairs(redis.call('HMGET', KEYS[7], unpack(ids))) do freed = freed + (tonumber(w) or 0) end
  redis.call('HDEL', KEYS[7], unpack(ids))
  if freed > 0 then redis.call('DECRBY', KEYS[9], freed) end
end
redis.call('ZREMRANGEBYSCORE', KEYS[6], '-inf', now)
local gone = redis.call('ZRANGEBYSCORE', KEYS[5], '-inf', now)
for i = 1, #gone, 500 do
  redis.call('ZREM', KEYS[2], unpack(gone, i, math.min(i + 499, #gone)))
  redis.call('HDEL', KEYS[8], unpack(gone, i, math.min(i + 499, #gone)))
end
redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', now)
local weight = tonumber(ARGV[13])
if redis.call('ZCARD', KEYS[4]) >= tonumber(ARGV[7]) then return {'full'} end
if redis.call('ZCARD', KEYS[6]) >= tonumber(ARGV[12]) then return {'kept_full'} end
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[6]) then return {'owner_full'} end
if ARGV[15] ~= '' and (tonumber(redis.call('GET', KEYS[9])) or 0) + weight > tonumber(ARGV[15]) then
  return {'bytes_full'}
end
local oldest = redis.call('ZRANGE', KEYS[5], 0, 0, 'WITHSCORES')[2]
if redis.call('ZCARD', KEYS[5]) >= tonumber(ARGV[11]) then return {'owner_kept_full', oldest} end
if ARGV[14] ~= '' and sum(KEYS[8]) + weight > tonumber(ARGV[14]) then return {'owner_bytes_full', oldest} end
-- HINCRBY rather than setting v to 1: a writer still holding an older version of this key must lose its CAS.
redis.call('HSET', KEYS[1], 'j', ARGV[2], 'o', ARGV[9], 's', ARGV[10])
redis.call('HINCRBY', KEYS[1], 'v', 1)
redis.call('PEXPIREAT', KEYS[1], ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
keep(KEYS[2], tonumber(ARGV[4]), now)
redis.call('HSET', KEYS[7], ARGV[1], weight)
redis.call('HSET', KEYS[8], ARGV[1], weight)
keep(KEYS[8], tonumber(ARGV[4]), now)
redis.call('INCRBY', KEYS[9], weight)
keep(KEYS[7], tonumber(ARGV[4]), now)
keep(KEYS[9], tonumber(ARGV[4]), now)
local sets = {KEYS[5], KEYS[6]}
if ARGV[8] == '1' then sets = {KEYS[3], KEYS[4], KEYS[5], KEYS[6]} end
for _, k in ipairs(sets) do
  redis.call('ZADD', k, ARGV[4], ARGV[1])
  keep(k, tonumber(ARGV[4]), now)
end
return false`;

/**
 * KEYS: record, owner's open set, deployment's open set, deployment's weights, owner's weights, deployment's weight
 * sum. ARGV: version read, new JSON, id, final (1/0), status, new weight, bytesPerOwner, bytesTotal (both empty:
 * unchecked). Writes only when the version is still the one read (an expired record has none: the caller reads again
 * and finds nothing), and, when checked, only if a heavier task stays within both byte caps (-1: the owner's, -2: the
 * deployment's). HSET keeps the key's expiry.
 */
export const SWAP = `${SUM}
if redis.call('HGET', KEYS[1], 'v') ~= ARGV[1] then return 0 end
local weight = tonumber(ARGV[6])
local heavier = weight - (tonumber(redis.call('HGET', KEYS[4], ARGV[3])) or 0)
if heavier > 0 and ARGV[7] ~= '' then
  if sum(KEYS[5]) + heavier > tonumber(ARGV[7]) then return -1 end
  if (tonumber(redis.call('GET', KEYS[6])) or 0) + heavier > tonumber(ARGV[8]) then return -2 end
end
redis.call('HSET', KEYS[1], 'j', ARGV[2], 's', ARGV[5])
redis.call('HINCRBY', KEYS[1], 'v', 1)
redis.call('HSET', KEYS[4], ARGV[3], weight)
redis.call('HSET', KEYS[5], ARGV[3], weight)
redis.call('INCRBY', KEYS[6], heavier)
if ARGV[4] == '1' then
  redis.call('ZREM', KEYS[2], ARGV[3])
  redis.call('ZREM', KEYS[3], ARGV[3])
end
return 1`;

/** KEYS: an open set. ARGV: now. Drops the entries of expired tasks, then counts. */
export const COUNT = `redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
return redis.call('ZCARD', KEYS[1])`;
