import { request as httpRequest } from 'node:http';

/**
 * Hand-rolled Streamable HTTP for end-to-end tests: plain `fetch`, JSON-RPC bodies written by hand,
 * and a small SSE reader. No SDK, so every status, header and byte is what the server sent.
 */

export const ACCEPT_BOTH = 'application/json, text/event-stream';

/** Bearer tokens by server origin (one server per origin: each listens on its own ephemeral port). */
const tokens = new Map<string, string>();

/**
 * Makes every request this module sends to `server` (its origin: `/mcp`, `/sse`, `/messages` alike)
 * carry `Authorization: Bearer <token>`. Call it from the suite's `beforeAll`, right after starting the
 * server. A request can still replace the header with its own `authorization` (lowercase) entry.
 */
export function authorize(server: { url: string; token?: string }): void {
  if (!server.token) throw new Error(`no token for ${server.url}: the server was started without a test issuer`);
  tokens.set(new URL(server.url).origin, server.token);
}

/** The `authorization` header registered with {@link authorize} for `url`'s server, or none. */
export function authHeader(url: string): Record<string, string> {
  const token = tokens.get(new URL(url).origin);
  return token ? { authorization: `Bearer ${token}` } : {};
}

export interface PostOptions {
  sessionId?: string;
  protocolVersion?: string;
  /** Extra headers; they override the defaults (Content-Type, Accept and the registered Authorization). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** POSTs `body` (serialised unless already a string) with the headers a conforming client sends. */
export function post(url: string, body: unknown, o: PostOptions = {}): Promise<Response> {
  const headers: Record<string, string> = {
    ...authHeader(url),
    'content-type': 'application/json',
    accept: ACCEPT_BOTH,
  };
  if (o.sessionId !== undefined) headers['mcp-session-id'] = o.sessionId;
  if (o.protocolVersion !== undefined) headers['mcp-protocol-version'] = o.protocolVersion;
  return fetch(url, {
    method: 'POST',
    headers: { ...headers, ...o.headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    signal: o.signal,
  });
}

/** Opens a GET on the MCP endpoint (an SSE stream when the server agrees). */
export function get(
  url: string,
  sessionId: string | undefined,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<Response> {
  const h: Record<string, string> = { ...authHeader(url), accept: 'text/event-stream', ...headers };
  if (sessionId !== undefined) h['mcp-session-id'] = sessionId;
  return fetch(url, { method: 'GET', headers: h, signal });
}

export const initializeRequest = (
  protocolVersion: string,
  id: string | number = 1,
  capabilities: Record<string, unknown> = {},
) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities, clientInfo: { name: 'raw-http-e2e', version: '1.0.0' } },
});

export interface Initialized {
  sessionId: string;
  response: Response;
  body: { jsonrpc: string; id: number; result: Record<string, unknown> };
}

/** `initialize` only; fails the test unless the server answers 200 with a session id. */
export async function initialize(
  url: string,
  protocolVersion: string,
  capabilities: Record<string, unknown> = {},
): Promise<Initialized> {
  const response = await post(url, initializeRequest(protocolVersion, 1, capabilities));
  const text = await response.text();
  const sessionId = response.headers.get('mcp-session-id');
  if (response.status !== 200 || !sessionId) throw new Error(`initialize failed: ${response.status} ${text}`);
  return { sessionId, response, body: JSON.parse(text) };
}

/** `initialize` plus `notifications/initialized`: a session ready for normal operation. */
export async function openSession(
  url: string,
  protocolVersion: string,
  capabilities: Record<string, unknown> = {},
): Promise<string> {
  const { sessionId } = await initialize(url, protocolVersion, capabilities);
  const res = await post(
    url,
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { sessionId, protocolVersion: headerFor(protocolVersion) },
  );
  if (res.status !== 202) throw new Error(`notifications/initialized got ${res.status}`);
  return sessionId;
}

/** Clients of 2025-06-18 and later send MCP-Protocol-Version; older ones do not. */
export const headerFor = (v: string): string | undefined => (v >= '2025-06-18' ? v : undefined);

/** POSTs one request in a session and returns status, headers and the parsed JSON body. */
export async function call(
  url: string,
  sessionId: string,
  message: unknown,
  protocolVersion?: string,
): Promise<{ status: number; headers: Response['headers']; text: string; json: any }> {
  const res = await post(url, message, { sessionId, protocolVersion });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: text ? JSON.parse(text) : undefined };
}

export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
  retry?: number;
}

/** Reads SSE events from a fetch body one at a time (field parsing per the WHATWG event-stream rules). */
export class SseReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private buffer = '';
  private done = false;
  /** A read still in flight after a timeout; the next call waits on it so no chunk is lost. */
  private pending: ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']> | undefined;

  constructor(response: Response) {
    if (!response.body) throw new Error('response has no body');
    this.reader = response.body.getReader();
  }

  /** The next event, or undefined when the stream ended. Rejects after `timeoutMs`. */
  async next(timeoutMs = 5_000): Promise<SseEvent | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const event = this.take();
      if (event) return event;
      if (this.done) return undefined;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('timed out waiting for an SSE event');
      let timer: NodeJS.Timeout | undefined;
      this.pending ??= this.reader.read();
      const chunk = await Promise.race([
        this.pending,
        new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), left))),
      ]).finally(() => clearTimeout(timer));
      if (chunk === 'timeout') throw new Error('timed out waiting for an SSE event');
      this.pending = undefined;
      if (chunk.done) this.done = true;
      else this.buffer += this.decoder.decode(chunk.value, { stream: true }).replace(/\r\n?/g, '\n');
    }
  }

  /** Every remaining event until the server ends the stream. */
  async rest(timeoutMs = 5_000): Promise<SseEvent[]> {
    const events: SseEvent[] = [];
    for (let e = await this.next(timeoutMs); e; e = await this.next(timeoutMs)) events.push(e);
    return events;
  }

  /** True when nothing (not even a comment) arrives within `ms`. */
  async quietFor(ms: number): Promise<boolean> {
    try {
      const e = await this.next(ms);
      return e === undefined;
    } catch {
      return true;
    }
  }

  async cancel(): Promise<void> {
    await this.reader.cancel().catch(() => undefined);
  }

  private take(): SseEvent | undefined {
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end < 0) return undefined;
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const event: SseEvent = { data: '' };
      const data: string[] = [];
      let fields = 0;
      for (const line of block.split('\n')) {
        if (line === '' || line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const name = colon < 0 ? line : line.slice(0, colon);
        let value = colon < 0 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        fields++;
        if (name === 'data') data.push(value);
        else if (name === 'id') event.id = value;
        else if (name === 'event') event.event = value;
        else if (name === 'retry') event.retry = Number(value);
      }
      if (fields === 0) continue; // a comment-only block (keepalive)
      event.data = data.join('\n');
      return event;
    }
  }
}

/** The JSON-RPC message an SSE event carries. */
export const messageOf = (e: SseEvent): Record<string, any> => JSON.parse(e.data);

/**
 * A request through node:http, for headers `fetch` refuses to set (Host). Carries the registered
 * Authorization (see {@link authorize}) unless `headers` has its own `authorization`.
 */
export function rawRequest(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers: { ...authHeader(url), ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
