import { IntrinsicException } from '@nestjs/common';

/**
 * An authentication or authorization failure at the HTTP layer: answered with 401/403 and a
 * `WWW-Authenticate` challenge (RFC 6750, MCP authorization), never with a JSON-RPC code override.
 * @internal
 */
export class McpAuthError extends IntrinsicException {
  constructor(
    readonly status: 400 | 401 | 403 | 503,
    /** RFC 6750 error code; absent for a missing token. */
    readonly bearerError: 'invalid_request' | 'invalid_token' | 'insufficient_scope' | undefined,
    /** Safe to show: never echoes the token. */
    readonly description: string,
    /** Why, for the server log only. */
    readonly reason: string,
    readonly requiredScope?: string,
    /** A bounded label for logs and metrics, where status and `bearerError` alone do not tell it. */
    readonly kind?:
      'token_in_query' | 'malformed_header' | 'duplicate_header' | 'expired_token' | 'key_source_unavailable',
  ) {
    super(description);
  }
}
