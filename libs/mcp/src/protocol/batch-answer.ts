import { ErrorCode, errorResponse, isJsonRpcId } from '../wire/json-rpc';

/** Messages of one JSON-RPC batch handled at once. @internal */
export const BATCH_PARALLELISM = 4;

/** `fn` over `items` with at most `limit` running at once; results in the order of `items`. @internal */
export async function mapBounded<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R> | R): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * The array answer of a batch, bounded in bytes: a response that would take the answer past `maxBytes` is replaced
 * by a short `-32005` error for its id, so a batch of cheap requests cannot be turned into a huge answer. Undefined
 * when nothing in the batch needs an answer.
 * @internal
 */
export function joinBatchAnswer(
  items: unknown[],
  outcomes: ({ body: string } | undefined)[],
  maxBytes: number,
  requestId?: string,
): { body: string } | undefined {
  const bodies: string[] = [];
  let size = 2;
  for (const [i, outcome] of outcomes.entries()) {
    if (!outcome) continue;
    let body = outcome.body;
    let bytes = Buffer.byteLength(body);
    if (size + bytes + 1 > maxBytes) {
      const id = (items[i] as { id?: unknown } | null)?.id;
      body = JSON.stringify(
        errorResponse(
          isJsonRpcId(id) ? id : null,
          ErrorCode.PayloadTooLarge,
          'Payload too large: the batch answer reached its size bound; send this request on its own',
          { reason: 'batch_response_too_large', maxBytes, ...(requestId !== undefined ? { requestId } : {}) },
        ),
      );
      bytes = Buffer.byteLength(body);
    }
    size += bytes + 1;
    bodies.push(body);
  }
  return bodies.length ? { body: `[${bodies.join(',')}]` } : undefined;
}
