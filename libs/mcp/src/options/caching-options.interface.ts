/**
 * Caching hints (`ttlMs`, `cacheScope`) on the cacheable results of 2026-07-28 requests: `server/discover`, the lists
 * and `resources/read`.
 */
export interface McpCachingOptions {
  /**
   * Freshness of `server/discover` and the lists, in ms. Default 60 000 (v2.0 §12.3, docs/compliance.md#s12). Env
   * `MCP_LIST_TTL_MS`.
   */
  listTtlMs?: number;
  /** Freshness of `resources/read` results, in ms. Default 0 (re-read each time). Env `MCP_READ_TTL_MS`. */
  readTtlMs?: number;
  /**
   * `private` (default): caches must not share results across callers (lists are filtered by the caller's scopes).
   * `public` only when every caller sees the same results. Env `MCP_CACHE_SCOPE`.
   */
  cacheScope?: 'private' | 'public';
}
