/**
 * A serialised answer to one request, with what the transports need to frame it: the JSON-RPC error code when it
 * failed, `error.data` (for `retryAfter`), and the scopes a caller lacked (HTTP answers 403 with a Bearer challenge
 * naming them; see InsufficientScopeError).
 * @internal
 */
export interface DispatchOutcome {
  body: string;
  errorCode?: number;
  errorData?: unknown;
  scopeDenied?: readonly string[];
}
