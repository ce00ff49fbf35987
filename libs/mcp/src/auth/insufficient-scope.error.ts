import { McpError } from '../errors/mcp.error';
import { ErrorCode } from '../wire/json-rpc';

/**
 * A caller without a scope the target requires (`@McpScopes`): JSON-RPC `-32001` with `data.reason:
 * insufficient_scope` and the scopes, and a typed outcome the HTTP transport answers with 403 and a Bearer
 * challenge naming them (no parsing of `error.data`).
 */
export class InsufficientScopeError extends McpError {
  constructor(readonly requiredScopes: readonly string[]) {
    super(ErrorCode.Forbidden, 'Forbidden: the token lacks a required scope', {
      reason: 'insufficient_scope',
      requiredScopes: [...requiredScopes],
    });
  }
}
