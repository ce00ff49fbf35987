import { JwksClient } from 'jwks-rsa';

/** The issuer's key set could not be fetched and no cached key fits: the token can be neither trusted nor refused. */
export class KeySourceUnavailableError extends Error {
  override readonly name = 'KeySourceUnavailableError';
}

/** The token's `kid` is not in the issuer's key set, even after a refetch (or one was refetched recently). */
export class UnknownKeyError extends Error {
  override readonly name = 'UnknownKeyError';
}

/** Timings of a {@link JwksKeySource}. */
export interface JwksKeySourceOptions {
  /** How long fetched keys are trusted without a refetch (the auth option `jwksCacheTtlMs`). */
  ttlMs: number;
  /** At most one refetch for unknown `kid`s per interval, however many arrive. */
  refetchIntervalMs: number;
  /** After a failed fetch, the next attempt waits this long (short: the issuer is back soon after an outage). */
  retryAfterFailureMs: number;
  /** Timeout of one fetch. */
  timeoutMs: number;
}

/**
 * The issuer's signing keys by `kid`, fetched with jwks-rsa and held here, so the refetch policy is ours:
 * - an unknown `kid` triggers at most one refetch per `refetchIntervalMs`, shared by every lookup waiting for it,
 *   so strangers sending random `kid`s cannot spend the refetch a real key rotation needs (jwks-rsa's own limiter
 *   was a shared allowance of 10 a minute, which they could exhaust);
 * - when the key set cannot be fetched, a lookup that no cached key answers fails with
 *   {@link KeySourceUnavailableError} (the guard answers 503 and `Retry-After`, so clients keep their good
 *   token), and the next fetch is tried after `retryAfterFailureMs`, not a whole interval;
 * - a known key stays usable while a refresh fails, for one more TTL at most.
 * The guard calls it only for tokens whose other checks (issuer, audience, expiry, subject) already pass.
 * @internal
 */
export class JwksKeySource {
  private readonly client: JwksClient;
  private keys = new Map<string, string>();
  private fetchedAt = 0;
  private lastAttempt = 0;
  private lastFailed = false;
  private inflight?: Promise<void>;

  constructor(
    jwksUri: string,
    private readonly options: JwksKeySourceOptions,
  ) {
    this.client = new JwksClient({ jwksUri, cache: false, rateLimit: false, timeout: options.timeoutMs });
  }

  /** The PEM public key for `kid`, or a {@link KeySourceUnavailableError} / {@link UnknownKeyError}. */
  async keyFor(kid: string): Promise<string> {
    const now = Date.now();
    const known = this.keys.get(kid);
    const fresh = now - this.fetchedAt < this.options.ttlMs;
    if (known && fresh) return known;
    if (known) {
      // Stale: refresh, but an issuer outage does not invalidate a key that was good a TTL ago.
      await this.refresh(true).catch(() => undefined);
      const key = this.keys.get(kid);
      if (key && Date.now() - this.fetchedAt < 2 * this.options.ttlMs) return key;
      if (key) throw new KeySourceUnavailableError('the key set is stale and cannot be refreshed');
      throw new UnknownKeyError(`kid "${kid.slice(0, 64)}" is no longer published`);
    }
    await this.refresh(false);
    const key = this.keys.get(kid);
    if (key) return key;
    throw new UnknownKeyError(`kid "${kid.slice(0, 64)}" is not published by the issuer`);
  }

  /**
   * Fetches the key set unless one fetch is running (then waits for it) or the last attempt was too recent: after
   * a failure, {@link KeySourceUnavailableError} until `retryAfterFailureMs` passed; after a success, nothing new
   * until `refetchIntervalMs` passed (unless `stale`: the cached set is past its TTL).
   */
  private async refresh(stale: boolean): Promise<void> {
    if (this.inflight) return this.inflight;
    const since = Date.now() - this.lastAttempt;
    if (this.lastFailed && since < this.options.retryAfterFailureMs)
      throw new KeySourceUnavailableError('the issuer key set could not be fetched');
    if (!stale && !this.lastFailed && since < this.options.refetchIntervalMs) return;
    this.lastAttempt = Date.now();
    this.inflight = this.fetch().finally(() => (this.inflight = undefined));
    return this.inflight;
  }

  private async fetch(): Promise<void> {
    try {
      const signing = await this.client.getSigningKeys();
      this.keys = new Map(signing.map((k) => [k.kid, k.getPublicKey()]));
      this.fetchedAt = Date.now();
      this.lastFailed = false;
    } catch (error) {
      // A key set without a usable key is an issuer answer, not an outage.
      if ((error as Error).name === 'JwksError' && /did not contain any (signing )?keys/i.test(String(error))) {
        this.keys = new Map();
        this.fetchedAt = Date.now();
        this.lastFailed = false;
        return;
      }
      this.lastFailed = true;
      throw new KeySourceUnavailableError(`the issuer key set could not be fetched: ${(error as Error).name}`);
    }
  }
}
