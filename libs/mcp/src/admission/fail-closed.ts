import { McpError } from '../errors/mcp.error';
import { ErrorCode } from '../wire/json-rpc';

/**
 * `-32006` (HTTP 503, `Retry-After: 2`) for a store a budget is counted in that cannot be reached. `store` names it in
 * the message ("limits", "idempotency"), `reason` goes in `data.reason`.
 * @internal
 */
export function storeUnreachable(store: string, reason: string): McpError {
  return new McpError(
    ErrorCode.UpstreamUnavailable,
    `Unavailable: the ${store} store cannot be reached; retry shortly`,
    {
      reason,
      retryAfter: 2,
    },
  );
}

/**
 * A store operation a budget depends on, or the refusal `unreachable` makes of its failure: budgets fail closed, since
 * a replica that cannot count cannot promise the limit (nor the replay, nor the task).
 * @internal
 */
export function failClosed<T>(operation: () => Promise<T>, unreachable: (error: unknown) => Error): Promise<T> {
  // Not an async function: budgets are counted on every request, and one promise (the operation's own, with its
  // rejection mapped) is all this should cost. A store that throws instead of rejecting fails closed as well.
  try {
    return Promise.resolve(operation()).catch((error: unknown) => Promise.reject(unreachable(error)));
  } catch (error) {
    return Promise.reject(unreachable(error));
  }
}

/** The limits store's refusal when it cannot be reached (rates, concurrency slots, stream places). @internal */
export const limitStoreUnreachable = (): McpError => storeUnreachable('limits', 'limit_store_unavailable');
