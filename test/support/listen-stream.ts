import { MODERN_META, followSse } from './modern-post';
import { waitFor } from './wait';

/** The JSON answer of a refused listen request. */
export type ListenRefusal = { error?: { code: number; message: string; data?: Record<string, unknown> } };

/** Opens a 2026-07-28 `subscriptions/listen` stream; `close()` ends it as a client does (closing the connection). */
export async function listen(
  url: string,
  token: string,
): Promise<{ status: number; body?: ListenRefusal; close: () => Promise<void> }> {
  const abort = new AbortController();
  const res = await fetch(url, {
    method: 'POST',
    signal: abort.signal,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'subscriptions/listen',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'subscriptions/listen',
      params: { _meta: MODERN_META, notifications: { toolsListChanged: true } },
    }),
  });
  if (!(res.headers.get('content-type') ?? '').includes('text/event-stream'))
    return { status: res.status, body: (await res.json()) as ListenRefusal, close: async () => undefined };
  const { frames, done } = followSse(res);
  await waitFor(() => frames.length >= 1, 5_000, 'the acknowledgement');
  return {
    status: res.status,
    close: async () => {
      abort.abort();
      await done;
    },
  };
}
