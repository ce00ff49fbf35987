import pino from 'pino';

/**
 * Paths pino blanks before a line is written. Request headers are not serialised at all (the access line
 * carries method and path only); these exact paths are a second line of defence that costs nothing per line.
 */
export const REDACTED_LOG_PATHS = ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'];

/** Keys whose values never reach a log line, wherever they appear (exact names, case-insensitive). */
const SECRET_KEYS = new Set(
  'authorization proxy-authorization cookie set-cookie password passwd passphrase secret clientsecret client_secret apikey api_key api-key x-api-key token accesstoken access_token refreshtoken refresh_token idtoken id_token bearer privatekey private_key credential credentials'.split(
    ' ',
  ),
);
const CENSOR_DEPTH = 4;

/**
 * Only plain objects are walked: class instances (`req`, `res`, errors) have serializers of their
 * own, and walking a ServerResponse would cost more than the whole request.
 */
const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/**
 * Masks secret-named keys up to four levels deep, copying only the branches that hold one. A walk
 * over the keys of a log entry costs about a microsecond; pino's wildcard redaction paths cost tens
 * of microseconds per line, which would dominate a fast tool call.
 */
export function censorSecrets(value: Record<string, unknown>, depth = 0): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const v = value[key];
    let next = v;
    if (SECRET_KEYS.has(key.toLowerCase())) next = '[REDACTED]';
    else if (depth < CENSOR_DEPTH && isPlainObject(v)) next = censorSecrets(v, depth + 1);
    if (next !== v) (out ??= { ...value })[key] = next;
  }
  return out ?? value;
}

/**
 * Errors are logged with their message, type and stack, never with the request or response they
 * may carry (HTTP clients attach `config.headers.Authorization`, request bodies and cookies).
 */
export function errorSerializer(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const e = error as Error & { code?: unknown; cause?: unknown };
  const out: Record<string, unknown> = { type: e.name, message: e.message, stack: e.stack };
  if (e.code !== undefined) out.code = e.code;
  if (e.cause instanceof Error) out.cause = errorSerializer(e.cause);
  return out;
}

/**
 * A top-level `channel` is reserved for the audit channel: an application line carrying one is
 * renamed, so it can never pass for an audit event.
 */
export const reserveAuditChannel = (object: Record<string, unknown>): Record<string, unknown> => {
  if (!('channel' in object)) return object;
  const { channel, ...rest } = object;
  return { ...rest, appChannel: channel };
};

/** pino's `formatters.log`: the audit channel reserved, secrets censored. @internal */
const formatEntry = (object: Record<string, unknown>): Record<string, unknown> =>
  censorSecrets(reserveAuditChannel(object));

let lastMs = 0;
let lastTime = '';
let lastSecond = -1;
let secondPrefix = '';
/**
 * pino's ISO timestamp, formatted once per millisecond, and by `Date#toISOString` once per second: a busy server
 * writes several lines in the same millisecond, and `toISOString` was a visible share of a logged call's cost. Within
 * a second only the milliseconds change (UTC, so no offset moves in between).
 * @internal
 */
export function isoTime(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    const second = Math.floor(now / 1000);
    if (second !== lastSecond) {
      lastSecond = second;
      // `,"time":"2026-11-25T10:05:33.` (the ISO string up to and including the dot).
      secondPrefix = `,"time":"${new Date(now).toISOString().slice(0, 20)}`;
    }
    const ms = now - second * 1000;
    lastTime = `${secondPrefix}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z"`;
  }
  return lastTime;
}

/** The pino options of the application log (see `McpLoggerModule`). @internal */
export function mcpPinoOptions(level: string): pino.LoggerOptions {
  return {
    level,
    redact: { paths: REDACTED_LOG_PATHS, censor: '[REDACTED]' },
    timestamp: isoTime,
    formatters: { level: (label: string) => ({ level: label }), log: formatEntry },
    serializers: { err: errorSerializer },
  };
}
