import { ArgumentsHost, Catch, ExceptionFilter, Inject, Optional } from '@nestjs/common';
import { MCP_AUTH_FAILURE_LISTENER, McpAuthFailureListener } from './auth-failure.listener';
import { authFailureKind } from './auth-failure-kind';
import { McpChallenge } from './mcp-challenge';
import { McpAuthError } from './mcp-auth.error';
import { ErrorCode, errorResponse } from '../wire/json-rpc';
import { nodeRequest, nodeResponse } from '../http-adapter/node-http';
import { responseRequestId } from '../http-adapter/request-id';

/**
 * Answers auth failures on the MCP endpoints: 401/403, a `WWW-Authenticate: Bearer` challenge with
 * `realm`, `resource_metadata` and (when the token was the problem) `error`, and a JSON-RPC error body.
 * @internal
 */
@Catch(McpAuthError)
export class McpAuthExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly challenge: McpChallenge,
    @Optional() @Inject(MCP_AUTH_FAILURE_LISTENER) private readonly failures?: McpAuthFailureListener,
  ) {}

  catch(error: McpAuthError, host: ArgumentsHost): void {
    const req = nodeRequest(host.switchToHttp().getRequest());
    const res = nodeResponse(host.switchToHttp().getResponse());
    const kind = authFailureKind(error);
    // Counted and logged above auth/ (observability/), through the listener this folder owns.
    this.failures?.authFailed({ error, kind, req, requestId: responseRequestId(res) });
    if (res.headersSent) return;
    const headers: Record<string, string> =
      error.status === 503
        ? { 'Retry-After': '5', 'Content-Type': 'application/json' }
        : {
            'WWW-Authenticate': this.challenge.build(
              req,
              error.bearerError,
              error.bearerError ? error.description : undefined,
              error.requiredScope,
            ),
            'Content-Type': 'application/json',
          };
    res.writeHead(error.status, headers);
    const [code, prefix] =
      error.status === 503
        ? [ErrorCode.UpstreamUnavailable, 'Unavailable']
        : error.status === 400
          ? [ErrorCode.InvalidRequest, 'Bad request']
          : [ErrorCode.Forbidden, error.status === 401 ? 'Unauthorized' : 'Forbidden'];
    const requestId = responseRequestId(res);
    res.end(
      JSON.stringify(
        errorResponse(null, code, `${prefix}: ${error.description}`, {
          ...(error.status === 503 ? { reason: kind, retryAfter: 5 } : {}),
          ...(requestId !== undefined ? { requestId } : {}),
        }),
      ),
    );
  }
}
