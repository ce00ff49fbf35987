/**
 * Prometheus metrics (corporate standard §15.3, see docs/compliance.md#s15). `/metrics` is never public: it is
 * served on a separate listener (`port`), and on the main port only behind Basic auth (`basicAuth`).
 */
export interface McpMetricsOptions {
  /**
   * Port of the separate metrics listener; 0 picks a free one; `false` serves none. Default 9464. Env
   * `MCP_METRICS_PORT`.
   */
  port?: number | false;
  /** Interface of the metrics listener. Default the `HOST` of the app, else 127.0.0.1. Env `MCP_METRICS_HOST`. */
  host?: string;
  /**
   * Also serve `/metrics` on the main port behind these Basic credentials. Env `MCP_METRICS_USER` +
   * `MCP_METRICS_PASSWORD`.
   */
  basicAuth?: { username: string; password: string };
  /** Node.js runtime metrics (event loop, heap, GC). Default true. */
  defaultMetrics?: boolean;
}
