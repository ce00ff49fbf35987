/*
 * Why: handlers build error messages from the caller's own input (`No ticket ${ticketId}`), and the platform
 * hands those messages to the client. Echoed verbatim, a caller could plant terminal escape sequences, forged
 * log lines (CR/LF) or bidi overrides that reorder what a person reads (CVE-2021-42574, "Trojan Source") in
 * whatever shows the error: a terminal, a log viewer, an inspector, a model's context. So every message (and
 * every string in `error.data`) the platform passes through goes through here first, whoever wrote it.
 */

/** The longest error text a client gets, in UTF-16 code units, the ellipsis included. */
export const MAX_ERROR_TEXT = 500;
const ELLIPSIS = '\u2026';
/** Line breaks and tabs: C0 whitespace, NEL (U+0085), LINE and PARAGRAPH SEPARATOR. They become a space. */
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]/g;
/** Every other C0 and C1 control, and DEL. Each becomes U+FFFD, so the reader sees that something was there. */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
/** Bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069): dropped. */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;
/** How deep `sanitizeErrorData` walks into `error.data`; anything deeper becomes null. */
const MAX_DATA_DEPTH = 8;

/**
 * `text` made safe to show: line breaks and tabs become a space, other C0/C1 controls U+FFFD, bidi overrides
 * and isolates are dropped, and the result is cut to {@link MAX_ERROR_TEXT} characters ending in an ellipsis
 * (never inside a surrogate pair). Idempotent.
 * @internal
 */
export function sanitizeErrorText(text: string): string {
  const clean = text.replace(BREAKS, ' ').replace(CONTROLS, '\ufffd').replace(BIDI, '');
  if (clean.length <= MAX_ERROR_TEXT) return clean;
  let end = MAX_ERROR_TEXT - ELLIPSIS.length;
  const last = clean.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--; // a high surrogate whose pair would be cut off
  return clean.slice(0, end) + ELLIPSIS;
}

/**
 * `data` (an `error.data` value) as JSON.stringify would see it, with every string and every object key put
 * through {@link sanitizeErrorText}; numbers, booleans and null are kept, containers nested deeper than a
 * few levels become null.
 * @internal
 */
export function sanitizeErrorData(data: unknown, depth = 0): unknown {
  if (typeof data === 'string') return sanitizeErrorText(data);
  if (typeof data !== 'object' || data === null) return data;
  if (depth >= MAX_DATA_DEPTH) return null;
  if (typeof (data as { toJSON?: unknown }).toJSON === 'function') {
    // What JSON.stringify would write (a Date's ISO string, a class's own form), sanitised in turn.
    try {
      return sanitizeErrorData((data as { toJSON(): unknown }).toJSON(), depth + 1);
    } catch {
      return null;
    }
  }
  if (Array.isArray(data)) return data.map((v) => sanitizeErrorData(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) {
    // defineProperty: a `__proto__` key stays an own key instead of replacing the prototype.
    Object.defineProperty(out, sanitizeErrorText(k), {
      value: sanitizeErrorData(v, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
