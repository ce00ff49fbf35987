/**
 * Every bound of a downstream client, in one place (docs/downstream.md#bounds lists them). A downstream's options
 * override the first group; the rest are fixed.
 * @internal
 */
export const DOWNSTREAM_DEFAULTS = {
  /** Longest time of one request, retries included, when the call's own deadline is later (or there is no call). */
  timeoutMs: 10_000,
  /** Largest response body read. */
  maxResponseBytes: 1024 * 1024,
  /** Requests in flight at once per downstream; as many more may wait. */
  maxConcurrent: 32,
  retry: { attempts: 2, initialDelayMs: 100, maxDelayMs: 2_000, maxRetryAfterSeconds: 2 },
  breaker: { consecutiveFailures: 5, halfOpenAfterMs: 10_000 },
} as const;

/** Upper bounds an option may not pass: a typo (`timeoutMs: 100000000`) is refused at boot. @internal */
export const DOWNSTREAM_LIMITS = {
  timeoutMs: 10 * 60_000,
  maxResponseBytes: 64 * 1024 * 1024,
  maxConcurrent: 10_000,
  attempts: 10,
  delayMs: 60_000,
  retryAfterSeconds: 60,
  consecutiveFailures: 1_000,
  halfOpenAfterMs: 10 * 60_000,
} as const;

/** The longest upstream text an error carries (before the platform's own sanitising). @internal */
export const MAX_UPSTREAM_TEXT = 500;

/** A retry is not started when less than this is left of the deadline after its backoff. @internal */
export const MIN_ATTEMPT_MS = 50;

/** The injection token of downstream `name`'s client (what `@InjectDownstream(name)` injects). */
export const downstreamToken = (name: string): string => `McpDownstreamClient:${name}`;
