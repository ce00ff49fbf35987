import { resolve } from 'node:path';
import { isJsonText, nestsDeeperThan } from './json-text';

/**
 * The fuzzers' oracle and wire checks: what a conforming server answers to a payload, what a well-formed response
 * is, and what an answer must not leak.
 */

/** The default request body / stdio line limit (MCP_MAX_REQUEST_BYTES). */
export const LIMIT = 1_048_576;
/** The default nesting limit of a message (MCP_MAX_JSON_DEPTH): deeper is -32600 with id null, before parsing. */
export const MAX_DEPTH = 64;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Ids the server takes (documented in protocol/json-rpc.ts): strings up to 256 characters, safe integers. */
const isId = (id: unknown): id is string | number =>
  (typeof id === 'string' && id.length <= 256) || (typeof id === 'number' && Number.isSafeInteger(id));
const isNotification = (v: Record<string, unknown>) =>
  typeof v.method === 'string' && !('id' in v) && (v.params === undefined || isObject(v.params));
const isResponse = (v: Record<string, unknown>) =>
  'id' in v &&
  !('method' in v) &&
  'result' in v !== 'error' in v &&
  (('result' in v && isObject(v.result) && isId(v.id)) ||
    (isObject(v.error) &&
      Number.isInteger(v.error.code) &&
      typeof v.error.message === 'string' &&
      (isId(v.id) || v.id === null)));
/** True for what must never be answered: a valid notification or response. */
const silent = (v: unknown) => isObject(v) && v.jsonrpc === '2.0' && (isNotification(v) || isResponse(v));

export interface Expected {
  answers: 0 | 1;
  /** Over the size limit: one -32005. */
  tooLarge?: boolean;
  /** Nested past MAX_DEPTH: one -32600 with id null. */
  tooDeep?: boolean;
  /** A well-formed request: the answer carries exactly this id. */
  requestId?: string | number;
  /** Any id of the message the answer may echo (else null). */
  echo?: unknown;
  /** A batch the session accepts: an array answer with one response per item that is not a notification or response. */
  batch?: boolean;
  items?: number;
}

export function expected(bytes: Buffer, batches: boolean, stdio: boolean): Expected {
  // Over HTTP an initialize in a session is refused by the transport (400, -32600, id null), like a bad header.
  const transportRefusal = (o: Record<string, unknown>) => !stdio && o.method === 'initialize' && 'id' in o;
  if (bytes.length > LIMIT) return { answers: 1, tooLarge: true };
  let text = bytes.toString('utf8');
  if (stdio) text = text.replace(/\r$/, '');
  if (stdio && text.trim() === '') return { answers: 0 };
  // Refused before it is parsed, whatever it is (even a notification), by the depth of its text; invalid JSON is
  // refused anyway. Scanned, not parsed: a deep body is costly to parse and its value is not needed.
  if (nestsDeeperThan(text, MAX_DEPTH)) return isJsonText(text) ? { answers: 1, tooDeep: true } : { answers: 1 };
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { answers: 1 };
  }
  if (Array.isArray(v)) {
    if (!batches || v.length === 0) return { answers: 1 };
    const items = v.filter((x) => !silent(x)).length;
    return { answers: items ? 1 : 0, batch: true, items };
  }
  if (silent(v)) return { answers: 0 };
  const o = isObject(v) ? v : {};
  const request =
    o.jsonrpc === '2.0' && typeof o.method === 'string' && isId(o.id) && (o.params === undefined || isObject(o.params));
  return { answers: 1, requestId: request && !transportRefusal(o) ? (o.id as string | number) : undefined, echo: o.id };
}

/** Why `m` is not a well-formed JSON-RPC 2.0 response with an MCP-shaped result or error, or undefined. */
export function responseProblem(m: unknown): string | undefined {
  if (!isObject(m)) return 'not an object';
  if (m.jsonrpc !== '2.0') return 'jsonrpc is not "2.0"';
  const extra = Object.keys(m).filter((k) => !['jsonrpc', 'id', 'result', 'error'].includes(k));
  if (extra.length) return `unexpected members ${extra.join(',')}`;
  if (!('id' in m) || !(m.id === null || typeof m.id === 'string' || Number.isInteger(m.id)))
    return `bad id ${JSON.stringify(m.id)}`;
  if ('result' in m === 'error' in m) return 'needs exactly one of result and error';
  if ('result' in m)
    return m.id === null ? 'result with a null id' : isObject(m.result) ? undefined : 'result is not an object';
  const e = m.error;
  if (!isObject(e) || !Number.isInteger(e.code) || typeof e.message !== 'string')
    return 'error needs an integer code and a string message';
  const extraE = Object.keys(e).filter((k) => !['code', 'message', 'data'].includes(k));
  return extraE.length ? `unexpected error members ${extraE.join(',')}` : undefined;
}

/** A server-initiated message: only notifications are expected (the fuzz client declares no capabilities). */
export const isServerNotification = (m: unknown) =>
  isObject(m) && m.jsonrpc === '2.0' && typeof m.method === 'string' && !('id' in m);

/**
 * HTTP status per JSON-RPC error code in a 2025 session under the default (`spec`) profile: the error in a 200
 * answer, except malformed requests, scopes, the limits and unavailability, which stay HTTP errors.
 */
export const STATUS: Record<number, number> = {
  [-32700]: 400,
  [-32600]: 400,
  [-32601]: 200,
  [-32602]: 200,
  [-32603]: 200,
  [-32000]: 200,
  [-32001]: 403,
  [-32002]: 200,
  [-32003]: 429,
  [-32004]: 200,
  [-32005]: 413,
  [-32006]: 503,
  [-32007]: 200,
};

const ROOT = resolve(__dirname, '../..');
const LEAKS: [string, RegExp][] = [
  ['a stack frame', /\n\s+at /],
  ['a stack frame', /\bat [\w.<>$]+ \([^)]*:\d+/],
  ['an error with a path', /Error:[^\n"]*\/[\w.-]+\//],
  ['a /work/ path', /\/work\//],
  ['a node_modules path', /node_modules/],
  ['a source location', /\.(?:ts|js|mjs|cjs):\d+/],
  ['a system path', /\/(?:home|root|usr|opt|proc)\//],
];

/**
 * What `out` leaks (a stack, a path, a secret) that `input` did not itself contain, or undefined. `input` is a function
 * when it is costly to make (a fuzzed body of up to 1 MiB): it is only read when the answer shows a suspect.
 */
export function leakIn(out: string, input: string | (() => string), secrets: string[]): string | undefined {
  const unescape = (s: string) => s.replace(/\\n/g, '\n').replace(/\\\//g, '/');
  const o = unescape(out);
  let i: string | undefined;
  const sent = () => (i ??= unescape(typeof input === 'string' ? input : input()));
  for (const s of [...secrets, ROOT])
    if (s && o.includes(s) && !sent().includes(s)) return `a secret or the project path (${s.slice(0, 12)}...)`;
  return LEAKS.find(([, re]) => re.test(o) && !re.test(sent()))?.[0];
}

/** A short printable form of a payload for failure messages (only its ends are read: it may be 1 MiB). */
export const show = (bytes: Buffer) => {
  const s = bytes.toString('utf8');
  // Escaping only lengthens: a text over 400 characters is cut, and each end is escaped on its own.
  const t = s.length > 400 ? '' : JSON.stringify(s);
  return `${bytes.length} bytes: ${
    s.length > 400 || t.length > 400
      ? `${JSON.stringify(s.slice(0, 300)).slice(0, 300)} ... ${JSON.stringify(s.slice(-80)).slice(-80)}`
      : t
  }`;
};
