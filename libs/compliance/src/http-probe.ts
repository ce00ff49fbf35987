import { REQUEST_TIMEOUT_MS, RunGuard } from './run-guard';

/** One request and its answer, as a check reads it and the report shows it. */
export interface Exchange {
  method: string;
  path: string;
  /** The JSON-RPC method, when the body was one. */
  rpc?: string;
  status: number;
  headers: Headers;
  /** The JSON-RPC message of the answer (the first of an SSE stream), or the JSON body: any server's, read loosely. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the checks probe answers of unknown shape
  body: any;
  text: string;
  /** Where a redirect answer pointed: the command follows no redirect (docs/compliance.md#safety). */
  redirect?: string;
}

const MAX_EVIDENCE_CHARS = 300;

/** Cuts a value for the report; tokens never appear in it (bearer strings and JWT-shaped values are masked). */
export function redact(text: string): string {
  const masked = text
    .replace(/Bearer\s+(?![\w-]+=")[\w\-.~+/]+=*/gi, 'Bearer [redacted]')
    .replace(/\beyJ[\w-]+\.[\w-]+\.[\w-]*/g, '[redacted jwt]');
  return masked.length > MAX_EVIDENCE_CHARS ? `${masked.slice(0, MAX_EVIDENCE_CHARS)}…` : masked;
}

/** The evidence line of an exchange: what was sent, the status, and the part of the answer named by `show`. */
export function evidence(ex: Exchange, show?: unknown): string {
  const redirect = ex.redirect ? ` (a redirect to ${ex.redirect}, not followed)` : '';
  const what = `${ex.method} ${ex.path}${ex.rpc ? ` ${ex.rpc}` : ''} -> ${ex.status}${redirect}`;
  const part = show === undefined ? '' : `: ${typeof show === 'string' ? show : JSON.stringify(show)}`;
  return redact(`${what}${part}`);
}

/** The first JSON-RPC message of an SSE body, or the parsed JSON body, or undefined. */
function parseBody(text: string, type: string): unknown {
  try {
    if (type.includes('text/event-stream')) {
      const line = text.split('\n').find((l) => l.startsWith('data: ') && l.includes('"id"'));
      return line ? JSON.parse(line.slice(6)) : undefined;
    }
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The body of `res`, read as it arrives and never past `max` bytes: a longer body (or stream) is cancelled at the cap
 * and undefined is returned, so a server sending gigabytes costs the command at most `max` bytes of memory.
 */
export async function readCapped(res: Response, max: number): Promise<string | undefined> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > max) {
    await res.body?.cancel().catch(() => undefined);
    return undefined;
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body?.getReader();
  if (!reader) return '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Talks to one MCP endpoint over HTTP, black box: any server, written with any framework. Every answer (SSE included)
 * is read within `timeoutMs` and up to the guard's byte cap; no redirect is followed; nothing is sent once the run
 * has stopped (docs/compliance.md#safety).
 */
export class HttpProbe {
  constructor(
    readonly endpoint: URL,
    readonly token: string | undefined,
    /** The run's cap and deadline; a probe made outside a run gets the cap and no deadline. */
    readonly guard: RunGuard = new RunGuard(0),
    private readonly timeoutMs = REQUEST_TIMEOUT_MS,
  ) {}
  /** `GET` of a path beside the endpoint (`/health`). */
  get(path: string, headers: Record<string, string> = {}): Promise<Exchange> {
    return this.send('GET', new URL(path, this.endpoint), undefined, headers);
  }

  /** `POST` of a JSON-RPC message to the endpoint; `token: null` sends none. */
  post(
    message: Record<string, unknown>,
    o: { token?: string | null; headers?: Record<string, string> } = {},
  ): Promise<Exchange> {
    const token = o.token === null ? undefined : (o.token ?? this.token);
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...o.headers,
    };
    return this.send('POST', this.endpoint, JSON.stringify(message), headers, message.method as string | undefined);
  }

  /** `POST` of a raw body (a malformed message, say), with the token. */
  postRaw(body: string, headers: Record<string, string> = {}): Promise<Exchange> {
    const all = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
      ...headers,
    };
    return this.send('POST', this.endpoint, body, all);
  }

  private async send(
    method: string,
    url: URL,
    body: string | undefined,
    headers: Record<string, string>,
    rpc?: string,
  ): Promise<Exchange> {
    this.guard.throwIfStopped();
    const what = `${method} ${url.pathname}${rpc ? ` ${rpc}` : ''}`;
    const signal = AbortSignal.any([AbortSignal.timeout(this.timeoutMs), this.guard.signal]);
    let res: Response;
    let text: string | undefined;
    try {
      // A redirect is the answer: following one elsewhere would grade another server (docs/compliance.md#safety).
      res = await fetch(url, { method, headers, body, signal, redirect: 'manual' });
      text = await readCapped(res, this.guard.maxAnswerBytes);
    } catch (error) {
      // The run stopped (its deadline, or another answer over the cap) while this request was in flight.
      if (this.guard.stopped) throw this.guard.stopped;
      throw error;
    }
    if (text === undefined) throw this.guard.tooLarge(what);
    const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
    const redirect = location === null ? undefined : redirectTarget(url, location);
    if (redirect) this.guard.redirectRefused(what, redirect);
    return {
      method,
      path: url.pathname,
      ...(rpc ? { rpc } : {}),
      status: res.status,
      headers: res.headers,
      body: parseBody(text, res.headers.get('content-type') ?? ''),
      text,
      ...(redirect ? { redirect } : {}),
    };
  }
}

/** Where a `Location` points, said with its origin when it leaves the checked server's (never with a query). */
function redirectTarget(from: URL, location: string): string {
  let to: URL;
  try {
    to = new URL(location, from);
  } catch {
    return `an unreadable Location ${JSON.stringify(location.slice(0, 80))}`;
  }
  return to.origin === from.origin ? `${to.pathname} (same origin)` : `${to.origin}${to.pathname} (another origin)`;
}
