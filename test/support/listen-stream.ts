import { MODERN_META, followSse } from './modern-post';
import { waitFor } from './wait';

/** The JSON answer of a refused listen request. */
export type ListenRefusal = { error?: { code: number; message: string; data?: Record<string, unknown> } };

/** An open listen stream (or its refusal): the messages received so far, and `close()`. */
export interface ListenStream {
  status: number;
  body?: ListenRefusal;
  /** Every message of the stream so far (the acknowledgement first). */
  frames: Record<string, any>[];
  close: () => Promise<void>;
}

/**
 * Opens a 2026-07-28 `subscriptions/listen` stream and waits for its acknowledgement; `close()` ends it as a client
 * does (closing the connection).
 */
export async function listen(
  url: string,
  token: string,
  notifications: Record<string, unknown> = { toolsListChanged: true },
  id: string | number = 1,
  meta: Record<string, unknown> = MODERN_META,
): Promise<ListenStream> {
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
      id,
      method: 'subscriptions/listen',
      params: { _meta: meta, notifications },
    }),
  });
  if (!(res.headers.get('content-type') ?? '').includes('text/event-stream'))
    return { status: res.status, body: (await res.json()) as ListenRefusal, frames: [], close: async () => undefined };
  const { frames, done } = followSse(res);
  await waitFor(() => frames.length >= 1, 5_000, 'the acknowledgement');
  return {
    status: res.status,
    frames,
    close: async () => {
      abort.abort();
      await done;
    },
  };
}
