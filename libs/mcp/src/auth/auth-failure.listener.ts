import type { IncomingMessage } from 'node:http';
import { McpAuthError } from './mcp-auth.error';

/** One refused credential, as the auth filter saw it: the reason, never the token. */
export interface McpAuthFailure {
  readonly error: McpAuthError;
  /** `authFailureKind(error)`: a bounded label (`missing_token`, `expired`, ...). */
  readonly kind: string;
  readonly req: IncomingMessage;
  readonly requestId: unknown;
}

/**
 * Told of every refused credential before the answer is written. auth/ sits low in the layers and knows nothing of
 * metrics or logs: observability/ implements this (the failure counter and the aggregated refusal log).
 * @internal
 */
export interface McpAuthFailureListener {
  authFailed(failure: McpAuthFailure): void;
}

/** Injection token of the `McpAuthFailureListener`. @internal */
export const MCP_AUTH_FAILURE_LISTENER = Symbol('MCP_AUTH_FAILURE_LISTENER');
