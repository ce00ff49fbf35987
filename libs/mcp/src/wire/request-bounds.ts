/**
 * The longest string id or token a client may send that the server keeps or sends back: a JSON-RPC id, a
 * `_meta.progressToken`. Each progress notification repeats its token and is kept in the event log for resumption,
 * so an unbounded token would be copied into the store once per notification.
 */
export const MAX_TOKEN_CHARS = 256;

/**
 * Why a request's `_meta.progressToken` cannot be used (a reason for `data.reason`), or undefined when it is absent
 * or valid: a string of at most {@link MAX_TOKEN_CHARS} characters, or a finite number.
 * @internal
 */
export function progressTokenProblem(params: Record<string, unknown> | undefined): string | undefined {
  const meta = params?._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const token = (meta as Record<string, unknown>).progressToken;
  if (token === undefined) return undefined;
  if (typeof token === 'string') return token.length <= MAX_TOKEN_CHARS ? undefined : 'progress_token_too_long';
  return typeof token === 'number' && Number.isFinite(token) ? undefined : 'progress_token_invalid';
}
