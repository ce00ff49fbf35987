/**
 * Makes a probe failure safe to log: user info and query strings are cut out of every URL (they
 * may carry credentials or tokens), and the text is kept short (`max` characters).
 * @internal
 */
export function redact(text: string, max = 300): string {
  return text
    .replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/?#]*@/gi, '$1***@')
    .replace(/([a-z][a-z0-9+.-]*:\/\/[^\s?#]*)[?#][^\s]*/gi, '$1')
    .slice(0, max);
}

/** Why a probe failed, in a few words: the network error code, a timeout, or the message. @internal */
export function describeFailure(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } } | undefined;
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'timed out';
  const detail = e?.cause?.code ?? e?.cause?.message;
  return redact(detail ? `${e?.message ?? 'failed'} (${detail})` : String(e?.message ?? error));
}
