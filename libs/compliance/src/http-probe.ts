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
  const what = `${ex.method} ${ex.path}${ex.rpc ? ` ${ex.rpc}` : ''} -> ${ex.status}`;
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
 * Talks to one MCP endpoint over HTTP, black box: any server, written with any framework. Every answer is read in
 * full (SSE included) within `timeoutMs`.
 */
export class HttpProbe {
  constructor(
    readonly endpoint: URL,
    readonly token: string | undefined,
    private readonly timeoutMs = 10_000,
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
    const res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(this.timeoutMs) });
    const text = await res.text();
    return {
      method,
      path: url.pathname,
      ...(rpc ? { rpc } : {}),
      status: res.status,
      headers: res.headers,
      body: parseBody(text, res.headers.get('content-type') ?? ''),
      text,
    };
  }
}
