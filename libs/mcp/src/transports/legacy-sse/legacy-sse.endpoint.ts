/** The fixed path of the legacy SSE stream (`GET`). @internal */
export const LEGACY_SSE_PATH = 'sse';
/** The fixed path clients POST their messages to. @internal */
export const LEGACY_MESSAGES_PATH = 'messages';

/**
 * The URI sent in the `endpoint` event: `/messages?sessionId=<id>`, relative to the server and under
 * the same prefix the `GET /sse` was served at (for example Nest's global prefix: `/api/sse` gives
 * `/api/messages?…`).
 * @internal
 */
export function messagesEndpoint(requestUrl: string, sessionId: string): string {
  const path = requestUrl.split(/[?#]/)[0].replace(/\/+$/, '');
  const match = new RegExp(`/${LEGACY_SSE_PATH}$`, 'i').exec(path);
  // Never a protocol-relative URI (`//host/…`), whatever the request path looked like.
  const prefix = match
    ? path
        .slice(0, match.index)
        .replace(/\/{2,}/g, '/')
        .replace(/\/+$/, '')
    : '';
  return `${prefix}/${LEGACY_MESSAGES_PATH}?sessionId=${encodeURIComponent(sessionId)}`;
}
