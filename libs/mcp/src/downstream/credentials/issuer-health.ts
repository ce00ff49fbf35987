import { DownstreamCredentialsError } from './downstream-credentials.error';
import type { DownstreamGrant } from '../downstream.metrics';

/** Told of every request to the issuer (never a cache hit): its grant and whether a token came back. */
export type TokenAcquisitionListener = (grant: DownstreamGrant, outcome: 'ok' | 'failed') => void;

/**
 * What a downstream's readiness check knows of its token issuer, in this replica: whether the last token request
 * failed because the issuer could not be reached (no answer, 5xx, 429, a timeout) while no token this replica
 * obtained is still usable. A refusal (4xx) is an answer: the issuer is up. Once down, the check asks the issuer
 * itself (`probe`: its token endpoint, within the probe's bound) so that a replica out of rotation, which gets no
 * calls to try again, comes back when the issuer does.
 * @internal
 */
export class IssuerHealth {
  private failedAt: number | undefined;
  private usableUntil = 0;

  constructor(
    private readonly probe: (signal: AbortSignal) => Promise<boolean>,
    private readonly grant: DownstreamGrant,
    private readonly listener: TokenAcquisitionListener | undefined,
  ) {}

  /** A token was obtained, usable until `until` (epoch ms). */
  obtained(until: number): void {
    this.failedAt = undefined;
    this.usableUntil = Math.max(this.usableUntil, until);
    this.listener?.(this.grant, 'ok');
  }

  /** The token request failed with `error`. */
  failed(error: unknown): void {
    const unreachable = error instanceof DownstreamCredentialsError && error.reason === 'issuer_unavailable';
    this.failedAt = unreachable ? Date.now() : undefined;
    this.listener?.(this.grant, 'failed');
  }

  /** A cached token was handed out (it may be another replica's): calls are being served. */
  served(): void {
    this.failedAt = undefined;
  }

  /** False while the issuer is unreachable and no token is usable; asks the issuer again then. */
  async reachable(signal: AbortSignal): Promise<boolean> {
    if (this.failedAt === undefined || Date.now() < this.usableUntil) return true;
    const answered = await this.probe(signal).catch(() => false);
    if (answered) this.failedAt = undefined;
    return answered;
  }
}
