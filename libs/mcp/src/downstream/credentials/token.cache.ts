import { createHash } from 'node:crypto';
import { DownstreamCredentialsError } from './downstream-credentials.error';

/** A token and the instant (epoch ms) after which it is no longer handed out: its expiry less a margin. */
export interface CachedToken {
  value: string;
  usableUntil: number;
}

/** The part of a call a cache wait respects. */
export interface TokenWait {
  deadline: number;
  signal: AbortSignal;
}

/**
 * Where one downstream's tokens are kept between calls (in memory, or in Redis shared by replicas). `get` answers a
 * cached token, or runs `fetch` once for however many callers (and, on Redis, replicas) want the same key at once;
 * each caller waits no longer than its own deadline, and a caller that gives up does not cancel the fetch the others
 * wait for.
 */
export interface TokenCache {
  get(key: string, fetch: () => Promise<CachedToken>, wait: TokenWait): Promise<string>;
  /** Forgets the token under `key` (the downstream refused it). */
  delete(key: string): Promise<void>;
}

/** Cached tokens per downstream at most, unless configured otherwise: callers cannot fill memory or Redis. */
export const DEFAULT_MAX_CACHED_TOKENS = 10_000;
/** The margin taken off a token's lifetime: a tenth of it, at most this much. */
export const MAX_EXPIRY_MARGIN_MS = 60_000;

/**
 * When a token obtained at `obtainedAt` (the moment its request was sent, so never later than the issuer's clock)
 * stops being handed out: `expires_in` less a tenth (at most a minute). No `expires_in`: not cached at all, since
 * nothing says how long it lives.
 */
export function usableUntil(obtainedAt: number, expiresInSeconds: number | undefined): number {
  if (!expiresInSeconds || !Number.isFinite(expiresInSeconds) || expiresInSeconds <= 0) return obtainedAt;
  const lifetime = expiresInSeconds * 1000;
  return obtainedAt + lifetime - Math.min(MAX_EXPIRY_MARGIN_MS, lifetime / 10);
}

/** A cache key that names no subject, audience or scope in clear: the grant and a hash of the rest. */
export function tokenKey(grant: string, ...parts: (string | undefined)[]): string {
  return `${grant}:${createHash('sha256')
    .update(JSON.stringify(parts.map((p) => p ?? null)))
    .digest('base64url')}`;
}

/**
 * Waits for `pending` no later than the wait's deadline or abort: then a `-32006` naming the downstream. The
 * pending work goes on for the other callers.
 */
export function withinDeadline<T>(pending: Promise<T>, wait: TokenWait, downstream: string): Promise<T> {
  const late = () =>
    new DownstreamCredentialsError(
      'issuer_unavailable',
      downstream,
      "No token for the downstream service within the call's deadline",
    );
  if (wait.signal.aborted || Date.now() >= wait.deadline) {
    pending.catch(() => undefined);
    return Promise.reject(late());
  }
  return new Promise<T>((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      wait.signal.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      done();
      reject(late());
    };
    const timer = setTimeout(onAbort, Math.max(0, wait.deadline - Date.now()));
    wait.signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (v) => (done(), resolve(v)),
      (e: unknown) => (done(), reject(e as Error)),
    );
  });
}
