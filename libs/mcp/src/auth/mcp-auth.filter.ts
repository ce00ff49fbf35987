import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import { McpChallenge } from './mcp-challenge';
import type { Request, Response } from 'express';
import { McpAuthError } from './mcp-auth.error';
import { ErrorCode, errorResponse } from '../protocol/json-rpc';

/**
 * Answers auth failures on the MCP endpoints: 401/403, a `WWW-Authenticate: Bearer` challenge with
 * `realm`, `resource_metadata` and (when the token was the problem) `error`, and a JSON-RPC error body.
 * @internal
 */
@Catch(McpAuthError)
export class McpAuthExceptionFilter implements ExceptionFilter {
  constructor(private readonly challenge: McpChallenge) {}

  catch(error: McpAuthError, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<Request>();
    const res = host.switchToHttp().getResponse<Response>();
    if (res.headersSent) return;
    const headers: Record<string, string> =
      error.status === 503
        ? { 'Retry-After': '5', 'Content-Type': 'application/json' }
        : { 'WWW-Authenticate': this.challenge.build(req, error.bearerError, error.bearerError ? error.description : undefined, error.requiredScope), 'Content-Type': 'application/json' };
    res.writeHead(error.status, headers);
    const [code, prefix] = error.status === 503 ? [ErrorCode.UpstreamUnavailable, 'Unavailable'] : [ErrorCode.Forbidden, error.status === 401 ? 'Unauthorized' : 'Forbidden'];
    const requestId = res.getHeader('X-Request-Id');
    res.end(JSON.stringify(errorResponse(null, code, `${prefix}: ${error.description}`, typeof requestId === 'string' ? { requestId } : undefined)));
  }
}

