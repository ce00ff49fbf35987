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
export async function failClosed<T>(operation: () => Promise<T>, unreachable: (error: unknown) => Error): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw unreachable(error);
  }
}

/** The limits store's refusal when it cannot be reached (rates, concurrency slots, stream places). @internal */
export const limitStoreUnreachable = (): McpError => storeUnreachable('limits', 'limit_store_unavailable');
