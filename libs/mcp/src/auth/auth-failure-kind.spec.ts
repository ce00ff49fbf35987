import { authFailureKind } from './auth-failure-kind';
import { McpAuthError } from './mcp-auth.error';

describe('authFailureKind', () => {
  it.each([
    [new McpAuthError(401, undefined, 'Authentication required', 'missing token'), 'missing_token'],
    [
      new McpAuthError(401, 'invalid_request', 'x', 'token in query string', undefined, 'token_in_query'),
      'token_in_query',
    ],
    [
      new McpAuthError(401, 'invalid_request', 'x', 'malformed Authorization header', undefined, 'malformed_header'),
      'malformed_header',
    ],
    [
      new McpAuthError(401, 'invalid_token', 'x', 'TokenExpiredError: jwt expired', undefined, 'expired_token'),
      'expired_token',
    ],
    [new McpAuthError(401, 'invalid_token', 'x', 'expired-looking text that is no expiry'), 'invalid_token'],
    [new McpAuthError(401, 'invalid_token', 'x', 'JsonWebTokenError: invalid signature'), 'invalid_token'],
    [new McpAuthError(403, 'insufficient_scope', 'x', 'scope'), 'insufficient_scope'],
    [new McpAuthError(403, undefined, 'x', 'session subject mismatch'), 'session_mismatch'],
    [new McpAuthError(503, undefined, 'x', 'introspection unavailable'), 'introspection_unavailable'],
  ])('%#: maps to a bounded reason', (error, kind) => {
    expect(authFailureKind(error)).toBe(kind);
  });
});
