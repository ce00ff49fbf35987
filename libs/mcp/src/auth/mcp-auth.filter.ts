import { ArgumentsHost, Catch, ExceptionFilter, Optional } from '@nestjs/common';
import { McpMetrics } from '../observability/mcp-metrics.service';
import { McpRefusalLog } from '../observability/refusal-log';
import { authFailureKind } from './auth-failure-kind';
import { McpChallenge } from './mcp-challenge';
import { McpAuthError } from './mcp-auth.error';
import { ErrorCode, errorResponse } from '../wire/json-rpc';
import { clientAddress, nodeRequest, nodeResponse, pathOf } from '../http-adapter/node-http';

/**
 * Answers auth failures on the MCP endpoints: 401/403, a `WWW-Authenticate: Bearer` challenge with
 * `realm`, `resource_metadata` and (when the token was the problem) `error`, and a JSON-RPC error body.
 * @internal
 */
@Catch(McpAuthError)
export class McpAuthExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly challenge: McpChallenge,
    private readonly metrics: McpMetrics,
    @Optional() private readonly refusals?: McpRefusalLog,
  ) {}

  catch(error: McpAuthError, host: ArgumentsHost): void {
    const req = nodeRequest(host.switchToHttp().getRequest());
    const res = nodeResponse(host.switchToHttp().getResponse());
    const kind = authFailureKind(error);
    this.metrics.authFailures.inc({ reason: kind });
    // The reason, never the token: passport and jose messages name the failed check, not the value. Aggregated per
    // source address and reason: a flood of bad tokens writes a few lines, while the metric counts each one.
    this.refusals?.note(`auth:${kind}`, clientAddress(req), {
      detail: error.reason.slice(0, 200),
      status: error.status,
      requestId: res.getHeader('X-Request-Id'),
      path: pathOf(req.url),
    });
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
    const requestId = res.getHeader('X-Request-Id');
    res.end(
      JSON.stringify(
        errorResponse(null, code, `${prefix}: ${error.description}`, {
          ...(error.status === 503 ? { reason: kind, retryAfter: 5 } : {}),
          ...(typeof requestId === 'string' ? { requestId } : {}),
        }),
      ),
    );
  }
}
