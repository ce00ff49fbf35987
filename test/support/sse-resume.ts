/**
 * Resuming an SSE stream the way a 2025-11-25 client does: read a streamed answer's event ids, then GET the
 * endpoint with `Last-Event-ID` to have the missed events replayed (from whichever replica answers).
 */

/** Reads `res` (an SSE answer) until it has carried `n` event ids besides the priming one (`…_0`); returns them. */
export async function readEventIds(res: Response, n: number): Promise<string[]> {
  // The reader is left as it is: the stream ends when its replica goes.
  const reader = res.body!.getReader();
  let text = '';
  const ids = () => [...text.matchAll(/^id: (\S+)$/gm)].map((m) => m[1]).filter((i) => !i.endsWith('_0'));
  while (ids().length < n) {
    const { value, done } = await reader.read();
    if (done) break;
    text += Buffer.from(value).toString();
  }
  return ids();
}

/** GET with `Last-Event-ID`; the whole replay (the stream ends after it) and the ids it carried. */
export async function resumeStream(
  url: string,
  token: string,
  session: string,
  lastEventId: string,
): Promise<{ status: number; text: string; ids: string[] }> {
  const res = await fetch(url, {
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'text/event-stream',
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-11-25',
      'last-event-id': lastEventId,
    },
  });
  const text = await res.text();
  return { status: res.status, text, ids: [...text.matchAll(/^id: (\S+)$/gm)].map((m) => m[1]) };
}
