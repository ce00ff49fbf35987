/**
 * How a downstream client authenticates, never with the caller's token: a static secret from configuration (one
 * header), the service's own identity (OAuth 2.0 client credentials) or a token exchanged for the caller (RFC 8693).
 */
export type McpDownstreamCredentialsOptions =
  | { type: 'static'; header: string; value: string }
  | {
      type: 'client_credentials';
      issuer: string;
      clientId: string;
      clientSecret: string;
      scope?: string;
      audience?: string;
    }
  | {
      type: 'token_exchange';
      issuer: string;
      clientId: string;
      clientSecret: string;
      audience: string;
      scope?: string;
    };

/** When a failed request is tried again (only safe ones; see docs/downstream.md#retries). */
export interface McpDownstreamRetryOptions {
  /** Retries after the first attempt. Default 2; 0 turns retries off. */
  attempts?: number;
  /** First backoff delay in ms, doubled each retry, with full jitter. Default 100. */
  initialDelayMs?: number;
  /** Longest backoff delay in ms. Default 2000. */
  maxDelayMs?: number;
  /** A 429 is retried only when its Retry-After is at most this many seconds. Default 2. */
  maxRetryAfterSeconds?: number;
}

/** The circuit breaker of one downstream (see docs/downstream.md#circuit-breaker). */
export interface McpDownstreamBreakerOptions {
  /** Consecutive failures (no answer, 502/503/504, other 5xx) that open it. Default 5. */
  consecutiveFailures?: number;
  /** How long it stays open before one trial request is let through (half-open), in ms. Default 10000. */
  halfOpenAfterMs?: number;
}

/** What the downstream's `/ready` check asks besides its breaker and token issuer (docs/downstream.md#readiness). */
export interface McpDownstreamReadinessOptions {
  /**
   * A health path of the service, asked with a GET without credentials; it must answer 2xx within 2 s. Relative to
   * the baseUrl (`health`), or to the service's root with a leading `/` (`/health`); same origin only.
   */
  path?: string;
}

/**
 * One downstream service, as `McpDownstreamModule.register` takes it.
 *
 * @example
 * McpDownstreamModule.register({
 *   name: 'jira',
 *   baseUrl: 'https://jira.internal.example.com/rest/api/2/',
 *   credentials: { type: 'static', header: 'X-Api-Key', value: process.env.JIRA_API_KEY! },
 * })
 */
export interface McpDownstreamOptions {
  /** The name the client is injected by (`@InjectDownstream('jira')`) and logged under; unique per app. */
  name: string;
  /** Where request paths are resolved from: https, or http on a loopback host. */
  baseUrl: string;
  /** How requests are authenticated; absent, they carry no credentials. */
  credentials?: McpDownstreamCredentialsOptions;
  /** Longest time of one request (all its retries included) when no call deadline is shorter, in ms. Default 10000. */
  timeoutMs?: number;
  /** Retries of safe requests; `false` for none. */
  retry?: McpDownstreamRetryOptions | false;
  /** The circuit breaker; `false` for none. */
  breaker?: McpDownstreamBreakerOptions | false;
  /** Largest response body read, in bytes; a bigger one fails the request. Default 1 MiB. */
  maxResponseBytes?: number;
  /** Requests in flight at once (a bulkhead); as many more wait, beyond that they fail at once. Default 32. */
  maxConcurrent?: number;
  /**
   * Adds the readiness check `downstream_<name>` to `/ready` (down while the breaker is open, the health path does not
   * answer, or the token issuer cannot be reached): `true`, or with a health path. Default: no check, since one
   * downstream's outage would take every replica out of the load balancer.
   */
  readiness?: boolean | McpDownstreamReadinessOptions;
}
