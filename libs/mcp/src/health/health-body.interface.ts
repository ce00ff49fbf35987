/** What one readiness check reports: a status word, never an error text. */
export type McpCheckStatus = 'ok' | 'degraded' | 'down' | 'draining';

/** Body of `GET /health` (corporate standard §16.1, see docs/compliance.md#s16): 200 with `ok`, 503 with `down`. */
export interface McpHealthBody {
  status: 'ok' | 'down';
  /** The server's semver, the same value as `serverInfo.version`. */
  version: string;
  /** Whole seconds since the process started. */
  uptime: number;
}

/**
 * Body of `GET /ready` (corporate standard §16.2, see docs/compliance.md#s16): 200 with `ready`; 503 with
 * `not_ready` when a check is down, or `draining` once shutdown began.
 */
export interface McpReadinessBody {
  status: 'ready' | 'not_ready' | 'draining';
  checks: Record<string, McpCheckStatus>;
}
