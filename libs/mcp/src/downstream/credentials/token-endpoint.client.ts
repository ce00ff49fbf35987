import * as oidc from 'openid-client';
import { DownstreamCredentialsError } from './downstream-credentials.error';
import { isLoopback } from './token-request.params';

/** What the token endpoint of one downstream's issuer is asked with. */
export interface TokenEndpointOptions {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Seconds one discovery or token request may take (default 10): the shared fetch's own bound. */
  timeoutSeconds?: number;
}

/** A token endpoint's answer, reduced to what a cache needs. */
export interface IssuedToken {
  accessToken: string;
  expiresIn?: number;
}

/** An OAuth `error` code is a short token; anything else the issuer says is not repeated. */
const OAUTH_ERROR = /^[\x21-\x7e]{1,64}$/;

/**
 * One downstream's client at its issuer's token endpoint, with `openid-client`: the issuer's metadata is discovered
 * once (a failure is not remembered), the client authenticates with its secret (`client_secret_basic` when the issuer
 * supports it, `client_secret_post` otherwise), and every failure becomes a {@link DownstreamCredentialsError} whose
 * message carries no token, secret or issuer text beyond the OAuth `error` code. Plain `http://` is accepted for a
 * loopback issuer only (tests, a sidecar).
 * @internal
 */
export class TokenEndpointClient {
  private config?: Promise<oidc.Configuration>;

  constructor(
    private readonly downstream: string,
    private readonly options: TokenEndpointOptions,
  ) {}

  /** A grant request (`client_credentials`, or any other grant type through the generic request). */
  async grant(grantType: string, parameters: Record<string, string>): Promise<IssuedToken> {
    let answer: oidc.TokenEndpointResponse;
    try {
      const config = await this.configuration();
      answer =
        grantType === 'client_credentials'
          ? await oidc.clientCredentialsGrant(config, parameters)
          : await oidc.genericGrantRequest(config, grantType, parameters);
    } catch (e) {
      throw this.failure(e);
    }
    if (answer.token_type?.toLowerCase() !== 'bearer')
      throw new DownstreamCredentialsError(
        'exchange_refused',
        this.downstream,
        "The downstream service's token issuer answered a token that is not a bearer token",
      );
    return { accessToken: answer.access_token, expiresIn: answer.expires_in };
  }

  /**
   * Whether the token endpoint answers at all (a readiness probe): discovery, then an empty POST, which an issuer
   * refuses (4xx: it is up) or cannot serve (5xx, 429, no answer). No credentials and no token are sent.
   */
  async answers(signal: AbortSignal): Promise<boolean> {
    const endpoint = (await this.configuration()).serverMetadata().token_endpoint;
    if (!endpoint) return false;
    const res = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
      signal,
      redirect: 'manual',
    });
    await res.body?.cancel();
    return res.status < 500 && res.status !== 429;
  }

  private configuration(): Promise<oidc.Configuration> {
    if (!this.config) {
      const { issuer, clientId, clientSecret, timeoutSeconds = 10 } = this.options;
      const url = new URL(issuer);
      const insecure = url.protocol === 'http:' && isLoopback(url);
      this.config = oidc
        .discovery(url, clientId, undefined, oidc.None(), {
          timeout: timeoutSeconds,
          execute: insecure ? [oidc.allowInsecureRequests] : [],
        })
        .then((found) => {
          // Basic is the method every issuer must support (RFC 6749 §2.3.1); post only where basic is not offered.
          const methods = found.serverMetadata().token_endpoint_auth_methods_supported;
          const basic = !methods || methods.includes('client_secret_basic');
          const auth = basic ? oidc.ClientSecretBasic(clientSecret) : oidc.ClientSecretPost(clientSecret);
          const config = new oidc.Configuration(found.serverMetadata(), clientId, undefined, auth);
          config.timeout = timeoutSeconds;
          if (insecure) oidc.allowInsecureRequests(config);
          return config;
        });
      this.config.catch(() => (this.config = undefined));
    }
    return this.config;
  }

  /** Refused (the issuer answered 4xx) or unavailable (no answer, a timeout, 5xx, nonsense). */
  private failure(e: unknown): DownstreamCredentialsError {
    if (e instanceof DownstreamCredentialsError) return e;
    const status = statusOf(e);
    if (status !== undefined && status >= 400 && status < 500 && status !== 429) {
      const code = oauthErrorOf(e);
      return new DownstreamCredentialsError(
        'exchange_refused',
        this.downstream,
        `The downstream service's token issuer refused the token request (${code ?? `HTTP ${status}`})`,
        code,
      );
    }
    const why = status ? `HTTP ${status}` : 'no answer';
    return new DownstreamCredentialsError(
      'issuer_unavailable',
      this.downstream,
      `The downstream service's token issuer is unavailable (${why})`,
    );
  }
}

/** The OAuth `error` code of a refusal (in the JSON body, or a 401's WWW-Authenticate challenge), when well-formed. */
function oauthErrorOf(e: unknown): string | undefined {
  const code =
    e instanceof oidc.ResponseBodyError
      ? e.error
      : e instanceof oidc.WWWAuthenticateChallengeError
        ? e.cause[0]?.parameters.error
        : undefined;
  return code && OAUTH_ERROR.test(code) ? code : undefined;
}

/** The HTTP status behind an openid-client failure, when there was an answer. */
function statusOf(e: unknown): number | undefined {
  if (e instanceof oidc.ResponseBodyError) return e.status;
  if (e instanceof oidc.WWWAuthenticateChallengeError) return e.status;
  const cause = (e as { cause?: unknown })?.cause;
  return cause instanceof Response ? cause.status : undefined;
}
