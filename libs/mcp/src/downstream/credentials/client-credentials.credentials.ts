import { Logger, LoggerService } from '@nestjs/common';
import { McpDownstreamCredentialsOptions } from '../downstream-options.interface';
import { DownstreamCallInfo, DownstreamCredentials } from './downstream-credentials.interface';
import { TokenEndpointClient } from './token-endpoint.client';
import { TokenCredentialsDeps, tokenCacheFor } from './token-credentials.deps';
import { CachedToken, TokenCache, tokenKey, usableUntil } from './token.cache';
import { audienceParameter, checkIssuerOptions } from './token-request.params';
import { IssuerHealth } from './issuer-health';

/** `credentials: { type: 'client_credentials', ... }` of a downstream (RFC 6749 §4.4). */
export type ClientCredentialsOptions = Extract<McpDownstreamCredentialsOptions, { type: 'client_credentials' }>;

/**
 * The service's own token for one downstream: obtained with the client credentials grant, cached until shortly
 * before it expires (see usableUntil), shared by replicas when the module has Redis, asked for once however many
 * calls want it at the same moment. The caller's identity plays no part.
 *
 * @example new ClientCredentialsCredentials('jira', { type: 'client_credentials', issuer, clientId, clientSecret }, {})
 */
export class ClientCredentialsCredentials implements DownstreamCredentials {
  private readonly endpoint: TokenEndpointClient;
  private readonly cache: TokenCache;
  private readonly key: string;
  private readonly logger: LoggerService;
  private readonly health: IssuerHealth;

  constructor(
    private readonly name: string,
    private readonly options: ClientCredentialsOptions,
    deps: TokenCredentialsDeps,
  ) {
    checkIssuerOptions(name, options);
    this.endpoint = new TokenEndpointClient(name, options);
    this.cache = tokenCacheFor(name, deps);
    this.key = tokenKey('client_credentials', options.clientId, options.audience, options.scope);
    this.logger = deps.logger ?? new Logger('McpDownstream');
    this.health = new IssuerHealth((signal) => this.endpoint.answers(signal), 'client_credentials', deps.onAcquisition);
  }

  async headers(call: DownstreamCallInfo): Promise<Record<string, string>> {
    const token = await this.cache.get(this.key, () => this.fetch(), call);
    this.health.served();
    return { authorization: `Bearer ${token}` };
  }

  /** Readiness: false while the issuer cannot be reached and this replica has no usable token (issuer-health.ts). */
  issuerReachable(signal: AbortSignal): Promise<boolean> {
    return this.health.reachable(signal);
  }

  invalidate(): Promise<void> {
    return this.cache.delete(this.key);
  }

  private async fetch(): Promise<CachedToken> {
    const askedAt = Date.now();
    const params: Record<string, string> = { ...audienceParameter(this.options.audience) };
    if (this.options.scope) params.scope = this.options.scope;
    try {
      const issued = await this.endpoint.grant('client_credentials', params);
      const until = usableUntil(askedAt, issued.expiresIn);
      this.logger.log(
        `downstream "${this.name}": client_credentials token obtained, cached ${Math.round((until - Date.now()) / 1000)}s`,
      );
      this.health.obtained(until);
      return { value: issued.accessToken, usableUntil: until };
    } catch (e) {
      this.health.failed(e);
      this.logger.warn(`downstream "${this.name}": ${(e as Error).message}`);
      throw e;
    }
  }
}
