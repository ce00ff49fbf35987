import { Logger } from '@nestjs/common';
import { JwksClient, type SigningKey } from 'jwks-rsa';
import { describeFailure } from '../errors/redact';

/** A JWKS is a few keys: anything this large is not one, and is not read to the end. */
const MAX_JWKS_BYTES = 512 * 1024;

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
  /** Deadline of one whole fetch, connection to last byte. */
  timeoutMs: number;
}

/**
 * The issuer's signing keys by `kid`, fetched with jwks-rsa and held here, so the refetch policy is ours:
 * - an unknown `kid` triggers at most one refetch per `refetchIntervalMs`, shared by every lookup waiting for it,
 *   so strangers sending random `kid`s cannot spend the refetch a real key rotation needs (jwks-rsa's own limiter
 *   was a shared allowance of 10 a minute, which they could exhaust): a rotated key is found within one interval;
 * - when the key set cannot be fetched, a lookup that no cached key answers fails with
 *   {@link KeySourceUnavailableError} (the guard answers 503 and `Retry-After`, so clients keep their good
 *   token), and the next fetch is tried after `retryAfterFailureMs`, not a whole interval;
 * - a known key past its TTL is refreshed in the background and stays usable meanwhile, for one more TTL at most,
 *   so a slow or absent issuer does not stall or refuse requests on keys it published.
 * The guard calls it only for tokens whose other checks (issuer, audience, expiry, subject) already pass.
 * @internal
 */
export class JwksKeySource {
  private readonly client: JwksClient;
  private readonly logger = new Logger('McpAuth');
  private keys = new Map<string, string>();
  private fetchedAt = Number.NEGATIVE_INFINITY;
  private lastAttempt = Number.NEGATIVE_INFINITY;
  private failing = false;
  private inflight?: Promise<void>;

  constructor(
    jwksUri: string,
    private readonly options: JwksKeySourceOptions,
  ) {
    // jwks-rsa's own request has only an idle timeout, and never settles when a response stalls after its
    // headers: one stuck fetch would hold the shared refetch forever. Ours has a deadline and a size cap.
    this.client = new JwksClient({
      jwksUri,
      cache: false,
      rateLimit: false,
      fetcher: (uri) => fetchJwks(uri, options.timeoutMs),
    });
  }

  /** The PEM public key for `kid`, or a {@link KeySourceUnavailableError} / {@link UnknownKeyError}. */
  async keyFor(kid: string): Promise<string> {
    const known = this.keys.get(kid);
    const age = Date.now() - this.fetchedAt;
    if (known && age < this.options.ttlMs) return known;
    if (known && age < 2 * this.options.ttlMs) {
      // Refreshed behind this request: a key the issuer has removed is gone once the refresh lands.
      this.refresh('stale').catch(() => undefined);
      return known;
    }
    await this.refresh(known ? 'stale' : 'unknown');
    const key = this.keys.get(kid);
    if (key) return key;
    throw new UnknownKeyError(`kid "${kid.slice(0, 64)}" is not published by the issuer`);
  }

  /**
   * Fetches the key set unless a fetch is running (then waits for it) or the last attempt was too recent: after a
   * failure, {@link KeySourceUnavailableError} until `retryAfterFailureMs` passed; after a success, an unknown `kid`
   * gets nothing new until `refetchIntervalMs` passed (a stale key set is refreshed at once).
   */
  private refresh(why: 'unknown' | 'stale'): Promise<void> {
    if (this.inflight) return this.inflight;
    const since = Date.now() - this.lastAttempt;
    if (this.failing && since < this.options.retryAfterFailureMs)
      return Promise.reject(new KeySourceUnavailableError('the issuer key set could not be fetched'));
    if (why === 'unknown' && !this.failing && since < this.options.refetchIntervalMs) return Promise.resolve();
    this.lastAttempt = Date.now();
    this.inflight = this.fetch().finally(() => (this.inflight = undefined));
    return this.inflight;
  }

  private async fetch(): Promise<void> {
    let signing: SigningKey[];
    try {
      signing = await this.client.getSigningKeys();
    } catch (error) {
      // A key set without a usable key is the issuer's answer, not an outage.
      if (!/did not contain any (signing )?keys/i.test(String((error as Error).message))) {
        // Logged when the outage starts and when it ends, not on every retry.
        if (!this.failing) this.logger.warn(`JWKS fetch failed: ${describeFailure(error)}; retrying every few seconds`);
        this.failing = true;
        throw new KeySourceUnavailableError(`the issuer key set could not be fetched: ${describeFailure(error)}`);
      }
      signing = [];
    }
    if (this.failing) this.logger.log('JWKS fetched again');
    this.keys = new Map(signing.filter((k) => k.kid).map((k) => [k.kid!, k.getPublicKey()]));
    this.fetchedAt = Date.now();
    this.failing = false;
  }
}

/** GETs the JWKS within `timeoutMs` (whole answer), refusing non-2xx answers and bodies over the size cap. */
async function fetchJwks(uri: string, timeoutMs: number): Promise<{ keys: unknown }> {
  const res = await fetch(uri, {
    signal: AbortSignal.timeout(timeoutMs),
    redirect: 'error',
    headers: { accept: 'application/json' },
  });
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    throw new Error(`the JWKS answered HTTP ${res.status}`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += chunk.byteLength;
    if (size > MAX_JWKS_BYTES) throw new Error(`the JWKS is larger than ${MAX_JWKS_BYTES} bytes`);
    chunks.push(chunk);
  }
  // Not a key set (say, a gateway's error page in JSON) is an outage; `{"keys": []}` is the issuer's answer.
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { keys?: unknown } | null;
  if (!Array.isArray(body?.keys)) throw new Error('the answer is not a JWKS (no "keys" array)');
  return { keys: body.keys };
}
