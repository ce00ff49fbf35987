import type { IncomingHttpHeaders } from 'node:http';
import { DownstreamServerError } from './downstream.errors';

/** What `McpDownstreamClient.request` takes. */
export interface DownstreamRequest {
  /** `GET`, `POST`, ... */
  method: string;
  /** Resolved under the downstream's `baseUrl` (`issue/HD-7` or `/issue/HD-7`); never another origin. */
  path: string;
  /** Query parameters; an array repeats the parameter, undefined values are left out. */
  query?: Record<string, string | number | boolean | undefined | (string | number | boolean)[]>;
  /** Extra headers. The credentials' own headers win; none may carry the caller's token (the request is refused). */
  headers?: Record<string, string>;
  /** A string (text/plain), a Buffer (octet-stream) or any other value, sent as JSON. */
  body?: unknown;
  /** Sent as `Idempotency-Key`; makes any method safe to retry. */
  idempotencyKey?: string;
}

/** The options of the helpers (`get`, `post`, ...): a request without its method, path and body. */
export type DownstreamRequestOptions = Omit<DownstreamRequest, 'method' | 'path' | 'body'>;

/** A successful answer (status below 400), its body read in full. */
export class DownstreamResponse {
  constructor(
    readonly status: number,
    readonly headers: IncomingHttpHeaders,
    readonly body: Buffer,
    private readonly downstream: string,
  ) {}

  /** The body as UTF-8 text. */
  text(): string {
    return this.body.toString('utf8');
  }

  /** The body parsed as JSON; a body that is not JSON fails as a `-32000` (the downstream broke its contract). */
  json<T = unknown>(): T {
    try {
      return JSON.parse(this.text()) as T;
    } catch {
      throw new DownstreamServerError(
        'The downstream service answered with unreadable JSON',
        this.downstream,
        this.status,
        'upstream_unreadable',
      );
    }
  }

  /** What the helpers return: parsed JSON for a JSON content type, text otherwise, undefined for an empty body. */
  parsed<T = unknown>(): T {
    if (this.body.length === 0) return undefined as T;
    const type = String(this.headers['content-type'] ?? '').toLowerCase();
    return (/[/+]json\b/.test(type) ? this.json<T>() : this.text()) as T;
  }
}

/** The body of a request as bytes on the wire, and the content type it implies. @internal */
export function encodeBody(body: unknown): { payload: string | Buffer | undefined; type: string | undefined } {
  if (body === undefined) return { payload: undefined, type: undefined };
  if (typeof body === 'string') return { payload: body, type: 'text/plain; charset=utf-8' };
  if (Buffer.isBuffer(body)) return { payload: body, type: 'application/octet-stream' };
  if (body instanceof Uint8Array) return { payload: Buffer.from(body), type: 'application/octet-stream' };
  return { payload: JSON.stringify(body), type: 'application/json' };
}
