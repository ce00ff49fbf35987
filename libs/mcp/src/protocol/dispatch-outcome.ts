import { JsonRpcId, errorResponse } from '../wire/json-rpc';

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

/**
 * An error answer. The request id is echoed whenever it could be read (`null` only when it could not), and
 * `error.data` carries the correlation id (Appendix B.3) next to field/reason/retryAfter.
 * @internal
 */
export function failure(
  id: JsonRpcId | null,
  code: number,
  message: string,
  data?: unknown,
  rid?: string,
): DispatchOutcome {
  const withId = rid === undefined ? data : { ...(data as Record<string, unknown> | undefined), requestId: rid };
  return { body: JSON.stringify(errorResponse(id, code, message, withId)), errorCode: code, errorData: data };
}
