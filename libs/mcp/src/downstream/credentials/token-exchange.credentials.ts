import { Logger, LoggerService } from '@nestjs/common';
import { McpDownstreamCredentialsOptions } from '../downstream-options.interface';
import { DownstreamCallInfo, DownstreamCredentials } from './downstream-credentials.interface';
import { DownstreamCredentialsError } from './downstream-credentials.error';
import { TokenEndpointClient } from './token-endpoint.client';
import { TokenCredentialsDeps, tokenCacheFor } from './token-credentials.deps';
import { CachedToken, TokenCache, tokenKey, usableUntil } from './token.cache';
import { audienceParameter, checkIssuerOptions } from './token-request.params';
import { IssuerHealth } from './issuer-health';

/** `credentials: { type: 'token_exchange', ... }` of a downstream (RFC 8693). */
export type TokenExchangeOptions = Extract<McpDownstreamCredentialsOptions, { type: 'token_exchange' }>;

const GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN = 'urn:ietf:params:oauth:token-type:access_token';

/**
 * A token for the downstream on behalf of the caller: the caller's own token is the `subject_token` of a token
 * exchange at the issuer (RFC 8693) and is never sent downstream; the exchanged token (the downstream's audience,
 * the caller's subject, the scopes asked) is cached per caller subject, audience and scope until shortly before it
 * expires. Neither token is ever logged or put in an error message. A call without the caller's token is refused
 * (`no_caller_token`): a tool that acts for its caller needs one. So is a task's run, always: it may run later, on
 * another replica or a worker, and caller tokens are never stored (a tool run as a task uses client credentials).
 *
 * @example
 * new TokenExchangeCredentials('jira', { type: 'token_exchange', issuer, clientId, clientSecret, audience }, {});
 */
export class TokenExchangeCredentials implements DownstreamCredentials {
  private readonly endpoint: TokenEndpointClient;
  private readonly cache: TokenCache;
  private readonly logger: LoggerService;
  private readonly health: IssuerHealth;

  constructor(
    private readonly name: string,
    private readonly options: TokenExchangeOptions,
    deps: TokenCredentialsDeps,
  ) {
    checkIssuerOptions(name, options);
    if (!options.audience) throw new Error(`downstream "${name}" credentials: token_exchange needs an audience`);
    this.endpoint = new TokenEndpointClient(name, options);
    this.cache = tokenCacheFor(name, deps);
    this.logger = deps.logger ?? new Logger('McpDownstream');
    this.health = new IssuerHealth((signal) => this.endpoint.answers(signal), 'token_exchange', deps.onAcquisition);
  }

  async headers(call: DownstreamCallInfo): Promise<Record<string, string>> {
    const subjectToken = this.callerToken(call);
    const token = await this.cache.get(this.key(call, subjectToken), () => this.exchange(subjectToken), call);
    this.health.served();
    return { authorization: `Bearer ${token}` };
  }

  /** Readiness: false while the issuer cannot be reached and this replica has no usable token (issuer-health.ts). */
  issuerReachable(signal: AbortSignal): Promise<boolean> {
    return this.health.reachable(signal);
  }

  invalidate(call: DownstreamCallInfo): Promise<void> {
    return call.callerToken && call.taskId === undefined
      ? this.cache.delete(this.key(call, call.callerToken))
      : Promise.resolve();
  }

  private callerToken(call: DownstreamCallInfo): string {
    // Refused even where the run happens to be in the creating request's process: the outcome must not depend on
    // which replica or worker runs the task.
    if (call.taskId !== undefined)
      throw new DownstreamCredentialsError(
        'no_caller_token',
        this.name,
        `The downstream service acts on behalf of the caller, and a task run does not hold the caller's token ` +
          '(it is never stored): a tool run as a task uses client credentials',
      );
    if (call.callerToken) return call.callerToken;
    throw new DownstreamCredentialsError(
      'no_caller_token',
      this.name,
      `The downstream service acts on behalf of the caller, and this call has no caller token (unauthenticated)`,
    );
  }

  /** Per caller: the subject when known; otherwise the caller's token itself (hashed, like every part of a key). */
  private key(call: DownstreamCallInfo, subjectToken: string): string {
    const caller = call.subject !== undefined ? `sub:${call.subject}` : `token:${subjectToken}`;
    return tokenKey('token_exchange', caller, this.options.audience, this.options.scope);
  }

  private async exchange(subjectToken: string): Promise<CachedToken> {
    const askedAt = Date.now();
    const params: Record<string, string> = {
      subject_token: subjectToken,
      subject_token_type: ACCESS_TOKEN,
      requested_token_type: ACCESS_TOKEN,
      ...audienceParameter(this.options.audience),
    };
    if (this.options.scope) params.scope = this.options.scope;
    try {
      const issued = await this.endpoint.grant(GRANT, params);
      const until = usableUntil(askedAt, issued.expiresIn);
      this.logger.log(
        `downstream "${this.name}": token exchanged for a caller, cached ${Math.round((until - Date.now()) / 1000)}s`,
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
