import { McpAuthError } from './mcp-auth.error';

/**
 * A bounded label for an auth failure (logs and `mcp_auth_failures_total{reason}`); the free-text
 * reason goes to the log only.
 * @internal
 */
export function authFailureKind(error: McpAuthError): string {
  if (error.kind) return error.kind;
  if (error.status === 503) return 'introspection_unavailable';
  switch (error.bearerError) {
    case 'insufficient_scope':
      return 'insufficient_scope';
    case 'invalid_request':
      return 'malformed_header';
    case 'invalid_token':
      return 'invalid_token';
    default:
      return error.status === 403 ? 'session_mismatch' : 'missing_token';
  }
}
