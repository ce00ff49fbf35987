import { sanitizeErrorText } from '../errors/message-sanitizer';
import { redact } from '../errors/redact';
import { MAX_UPSTREAM_TEXT } from './downstream.constants';

/** Fields of a JSON error body that hold its human-readable reason, in the order they are looked for. */
const FIELDS = ['message', 'error_description', 'detail', 'error', 'title', 'errorMessages', 'errors'] as const;
/** The first line of a stack trace (`\n    at fn (/srv/app/x.js:1:2)`, Java's `\n\tat ...`) and all after it. */
const STACK = /[\r\n]+[ \t]*at\s.*$/s;
/** Absolute file paths (POSIX or Windows), with an optional :line:column. */
const PATHS = /(?:[A-Za-z]:\\|\/)(?:[\w.@-]+[\\/])+[\w.@-]*(?::\d+)*/g;
/** Bearer or basic credentials, and JWT-shaped strings. */
const SECRETS = /\b(?:bearer|basic)\s+[\w\-.~+/]+=*|\beyJ[\w-]+\.[\w-]+\.[\w-]*/gi;

/**
 * The human-readable reason in an upstream error body, safe to show (corporate standard §13.3 and §13.4, see
 * docs/compliance.md#s13): a JSON body's `message`/`error_description`/`detail`/`error`/... field, or a plain-text
 * body; HTML and other payloads give nothing. Stack traces, file paths, credentials and URL queries are removed,
 * controls and bidi overrides sanitised, and the text cut to {@link MAX_UPSTREAM_TEXT} characters. Undefined when
 * nothing readable is left.
 * @internal
 */
export function upstreamText(body: string, contentType: string | undefined): string | undefined {
  const type = (contentType ?? '').toLowerCase();
  let text: string | undefined;
  if (type.includes('json') || /^\s*[{[]/.test(body)) text = jsonReason(body);
  else if (type === '' || type.startsWith('text/plain')) text = body;
  if (text === undefined) return undefined;
  const clean = sanitizeErrorText(
    redact(text.slice(0, 4 * MAX_UPSTREAM_TEXT).replace(STACK, ''), 4 * MAX_UPSTREAM_TEXT)
      .replace(PATHS, '[path]')
      .replace(SECRETS, '[redacted]')
      .trim(),
  );
  return clean.length === 0 ? undefined : clean.slice(0, MAX_UPSTREAM_TEXT);
}

function jsonReason(body: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  return reasonOf(value, 0);
}

function reasonOf(value: unknown, depth: number): string | undefined {
  if (typeof value === 'string') return value;
  if (depth > 2 || typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value))
    return (
      value
        .slice(0, 5)
        .map((v) => reasonOf(v, depth + 1))
        .filter((v): v is string => !!v)
        .join('; ') || undefined
    );
  const record = value as Record<string, unknown>;
  for (const field of FIELDS) {
    const reason = reasonOf(record[field], depth + 1);
    if (reason) return reason;
  }
  return undefined;
}
