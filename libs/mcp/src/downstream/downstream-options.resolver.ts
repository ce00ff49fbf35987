import { isLoopbackHost } from '../auth/loopback-host';
import { DOWNSTREAM_DEFAULTS, DOWNSTREAM_LIMITS } from './downstream.constants';
import { McpDownstreamCredentialsOptions, McpDownstreamOptions } from './downstream-options.interface';
import { CHECK_NAME_PATTERN } from '../health/health.constants';
import { readinessCheckName } from './downstream-names';

/** A downstream's options with every default applied and every bound checked. @internal */
export interface ResolvedDownstreamOptions {
  name: string;
  /** The base URL, its path ending in `/` so that request paths resolve under it. */
  baseUrl: URL;
  credentials: McpDownstreamCredentialsOptions | undefined;
  timeoutMs: number;
  maxResponseBytes: number;
  maxConcurrent: number;
  /** `attempts: 0` when retries are off. */
  retry: { attempts: number; initialDelayMs: number; maxDelayMs: number; maxRetryAfterSeconds: number };
  /** Undefined when the breaker is off. */
  breaker: { consecutiveFailures: number; halfOpenAfterMs: number } | undefined;
  /** Undefined without the readiness option; `health` is the health path's URL when one is given. */
  readiness: { health: URL | undefined } | undefined;
}

const NAME = /^[a-z][a-z0-9_-]{0,62}$/i;

/**
 * Checks `options` and applies the defaults of {@link DOWNSTREAM_DEFAULTS}; every problem is listed in one Error, each
 * naming the option and what to write instead (the app does not boot with a bad downstream).
 * @internal
 */
export function resolveDownstreamOptions(options: McpDownstreamOptions): ResolvedDownstreamOptions {
  const problems: string[] = [];
  const name = typeof options?.name === 'string' ? options.name : '';
  if (!NAME.test(name)) problems.push('name must be 1-63 letters, digits, "-" or "_", starting with a letter');
  const baseUrl = checkBaseUrl(options?.baseUrl, problems);
  const d = DOWNSTREAM_DEFAULTS;
  const L = DOWNSTREAM_LIMITS;
  const resolved: ResolvedDownstreamOptions = {
    name,
    baseUrl: baseUrl ?? new URL('http://127.0.0.1/'),
    credentials: options?.credentials,
    timeoutMs: count('timeoutMs', options?.timeoutMs, d.timeoutMs, 1, L.timeoutMs, problems),
    maxResponseBytes: count(
      'maxResponseBytes',
      options?.maxResponseBytes,
      d.maxResponseBytes,
      1,
      L.maxResponseBytes,
      problems,
    ),
    maxConcurrent: count('maxConcurrent', options?.maxConcurrent, d.maxConcurrent, 1, L.maxConcurrent, problems),
    retry: resolveRetry(options?.retry, problems),
    breaker: resolveBreaker(options?.breaker, problems),
    readiness: undefined,
  };
  resolved.readiness = resolveReadiness(options?.readiness, name, resolved.baseUrl, problems);
  checkCredentials(options?.credentials, problems);
  if (problems.length > 0)
    throw new Error(`McpDownstreamModule "${name || '?'}": ${problems.join('; ')} (see docs/downstream.md)`);
  return resolved;
}

function resolveRetry(option: McpDownstreamOptions['retry'], problems: string[]): ResolvedDownstreamOptions['retry'] {
  const d = DOWNSTREAM_DEFAULTS.retry;
  const L = DOWNSTREAM_LIMITS;
  const retry = option === false ? { ...d, attempts: 0 } : option;
  return {
    attempts: count('retry.attempts', retry?.attempts, d.attempts, 0, L.attempts, problems),
    initialDelayMs: count('retry.initialDelayMs', retry?.initialDelayMs, d.initialDelayMs, 1, L.delayMs, problems),
    maxDelayMs: count('retry.maxDelayMs', retry?.maxDelayMs, d.maxDelayMs, 1, L.delayMs, problems),
    maxRetryAfterSeconds: count(
      'retry.maxRetryAfterSeconds',
      retry?.maxRetryAfterSeconds,
      d.maxRetryAfterSeconds,
      0,
      L.retryAfterSeconds,
      problems,
    ),
  };
}

function resolveBreaker(
  option: McpDownstreamOptions['breaker'],
  problems: string[],
): ResolvedDownstreamOptions['breaker'] {
  if (option === false) return undefined;
  const d = DOWNSTREAM_DEFAULTS.breaker;
  const L = DOWNSTREAM_LIMITS;
  return {
    consecutiveFailures: count(
      'breaker.consecutiveFailures',
      option?.consecutiveFailures,
      d.consecutiveFailures,
      1,
      L.consecutiveFailures,
      problems,
    ),
    halfOpenAfterMs: count(
      'breaker.halfOpenAfterMs',
      option?.halfOpenAfterMs,
      d.halfOpenAfterMs,
      1,
      L.halfOpenAfterMs,
      problems,
    ),
  };
}

function resolveReadiness(
  option: McpDownstreamOptions['readiness'],
  name: string,
  base: URL,
  problems: string[],
): ResolvedDownstreamOptions['readiness'] {
  if (option === undefined || option === false) return undefined;
  if (option !== true && (typeof option !== 'object' || option === null)) {
    problems.push('readiness must be true, false or { path?: string }');
    return undefined;
  }
  if (NAME.test(name) && !CHECK_NAME_PATTERN.test(readinessCheckName(name)))
    problems.push(`readiness needs a name of at most 29 characters (the check is named "downstream_<name>")`);
  const path = option === true ? undefined : option.path;
  if (path === undefined) return { health: undefined };
  const url =
    typeof path === 'string' && path.length > 0 && !/^[a-z][a-z0-9+.-]*:/i.test(path) && !path.startsWith('//')
      ? new URL(path, base)
      : undefined;
  if (!url || url.origin !== base.origin || url.search || url.hash) {
    problems.push("readiness.path must be a path on the baseUrl's host (health, or /health), without a query");
    return undefined;
  }
  return { health: url };
}

/** https anywhere; http only on a loopback host (a test double, a sidecar), so a credential never travels in clear. */
function checkBaseUrl(value: unknown, problems: string[]): URL | undefined {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    problems.push('baseUrl must be an absolute URL such as https://jira.example.com/rest/api/2/');
    return undefined;
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(host)))
    problems.push('baseUrl must use https (http is accepted only on a loopback host)');
  if (url.username || url.password) problems.push('baseUrl must not carry user info; use credentials instead');
  if (url.search || url.hash) problems.push('baseUrl must not carry a query or a fragment');
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

function count(field: string, value: unknown, fallback: number, min: number, max: number, problems: string[]): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    problems.push(`${field} must be an integer from ${min} to ${max} (default ${fallback})`);
    return fallback;
  }
  return value;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/i;

function checkCredentials(c: McpDownstreamCredentialsOptions | undefined, problems: string[]): void {
  if (c === undefined) return;
  if (c.type === 'static') {
    if (typeof c.header !== 'string' || !HEADER_NAME.test(c.header))
      problems.push('credentials.header must be an HTTP header name such as X-Api-Key');
    if (typeof c.value !== 'string' || c.value.length === 0 || /[\r\n\0]/.test(c.value))
      problems.push('credentials.value must be a non-empty string on one line (read it from the environment)');
    return;
  }
  if (c.type !== 'client_credentials' && c.type !== 'token_exchange')
    problems.push('credentials.type must be "static", "client_credentials" or "token_exchange"');
}
