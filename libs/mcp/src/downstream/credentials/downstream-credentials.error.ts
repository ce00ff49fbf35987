import { McpError } from '../../errors/mcp.error';
import { ErrorCode } from '../../wire/json-rpc';

/**
 * Why a downstream's credentials could not be had:
 * - `issuer_unavailable`: the token endpoint (or its discovery document) did not answer in time, refused the
 *   connection or answered 5xx: `-32006`, the call may be retried later;
 * - `exchange_refused`: the issuer answered and refused the grant (client credentials or token exchange:
 *   `invalid_client`, `invalid_grant`, `invalid_target`, ...): `-32000`, a configuration or permission problem;
 * - `no_caller_token`: a token-exchange downstream was called without the caller's token (an unauthenticated call,
 *   one outside a request, or a task's run, which never holds it): `-32001`.
 */
export type DownstreamCredentialsFailure = 'issuer_unavailable' | 'exchange_refused' | 'no_caller_token';

const CODES: Record<DownstreamCredentialsFailure, number> = {
  issuer_unavailable: ErrorCode.UpstreamUnavailable,
  exchange_refused: ErrorCode.ServerError,
  no_caller_token: ErrorCode.Forbidden,
};

/**
 * A downstream's token could not be obtained. The message says why, never a token, a secret, the issuer's raw answer
 * or the downstream's name (an internal service name is not part of the public contract, as for the upstream errors);
 * `data` carries `{ reason }` (and the OAuth `error` code when the issuer gave one); `downstream` names it for the
 * tool that catches it and for the log line. A downstream client recognises it by `instanceof` or `reason`; a tool
 * that lets it escape gets the JSON-RPC error of its code.
 *
 * @example if (e instanceof DownstreamCredentialsError && e.reason === 'issuer_unavailable') ...
 */
export class DownstreamCredentialsError extends McpError {
  constructor(
    readonly reason: DownstreamCredentialsFailure,
    readonly downstream: string,
    message: string,
    oauthError?: string,
  ) {
    super(CODES[reason], message, { reason, ...(oauthError ? { oauthError } : {}) });
    this.name = 'DownstreamCredentialsError';
  }
}
