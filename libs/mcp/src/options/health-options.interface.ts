/**
 * Options of the `/health` and `/ready` endpoints (corporate standard §16, see docs/compliance.md#s16). `/health`
 * turns 503 only when `MCP_HEALTH_MAX_HEAP_MB` is set and the heap is above it (Terminus `MemoryHealthIndicator`).
 */
export interface McpHealthOptions {
  /** Serve `GET /health` and `GET /ready` (HTTP apps only). Default true. */
  enabled?: boolean;
  /**
   * How long a dependency probe's answer (JWKS, introspection, stores, team checks) is reused. Default 5 s. Env
   * `MCP_READY_CACHE_MS`.
   */
  cacheMs?: number;
  /** How long one probe may take before it counts as down. Default 2 s. Env `MCP_READY_PROBE_TIMEOUT_MS`. */
  probeTimeoutMs?: number;
}
