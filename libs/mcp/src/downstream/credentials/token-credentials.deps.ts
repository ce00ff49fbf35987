import type { LoggerService } from '@nestjs/common';
import type { RedisClient } from '../../stores/redis-client.factory';
import type { McpKeyStore } from '../../stores/key.store';
import { InMemoryTokenCache } from './in-memory-token.cache';
import { RedisTokenCache } from './redis-token.cache';
import type { TokenAcquisitionListener } from './issuer-health';
import { DEFAULT_MAX_CACHED_TOKENS, TokenCache } from './token.cache';

/**
 * What the token credentials need from the module: the shared Redis when `store: 'redis'` (with its key prefix and
 * the key store whose shared key seals the cached tokens), a logger, and the cache bound. Without `redis`, tokens
 * are kept in this process only.
 */
export interface TokenCredentialsDeps {
  /** The module's Redis connection (`RedisConnection.client`), when the store is Redis. */
  redis?: RedisClient;
  /** The Redis key prefix (`options.redis.keyPrefix`, default `mcp:`). */
  keyPrefix?: string;
  /** Required with `redis`: the key store (`MCP_KEY_STORE`) every replica shares. */
  keyStore?: McpKeyStore;
  /** Where token acquisitions and failures are logged (never a token). Default: a Nest Logger `McpDownstream`. */
  logger?: LoggerService;
  /** Tokens cached per downstream at most (default 10,000). */
  maxCachedTokens?: number;
  /** Told of every token request to the issuer (a cache hit is none): the module counts them in its metrics. */
  onAcquisition?: TokenAcquisitionListener;
}

/** The cache of one downstream's tokens: Redis-shared when the module has Redis, this process's otherwise. */
export function tokenCacheFor(downstream: string, deps: TokenCredentialsDeps): TokenCache {
  const max = deps.maxCachedTokens ?? DEFAULT_MAX_CACHED_TOKENS;
  if (!Number.isInteger(max) || max < 1)
    throw new Error(`downstream "${downstream}": maxCachedTokens must be a positive integer, got ${String(max)}`);
  if (!deps.redis) return new InMemoryTokenCache(downstream, max);
  if (!deps.keyStore)
    throw new Error(`downstream "${downstream}": a Redis token cache needs the key store that seals its tokens`);
  return new RedisTokenCache(deps.redis, deps.keyStore, downstream, deps.keyPrefix, max);
}
