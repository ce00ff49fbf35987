import { IncomingMessage, ServerResponse } from 'node:http';

/** What Fastify hands a Nest controller: its request and reply wrap Node's own objects. */
interface FastifyRequestLike {
  raw: IncomingMessage;
}
interface FastifyReplyLike {
  raw: ServerResponse;
  sent: boolean;
  hijack(): unknown;
}

const isFastifyRequest = (req: unknown): req is FastifyRequestLike =>
  !(req instanceof IncomingMessage) && (req as { raw?: unknown })?.raw instanceof IncomingMessage;
const isFastifyReply = (res: unknown): res is FastifyReplyLike =>
  !(res instanceof ServerResponse) &&
  (res as { raw?: unknown })?.raw instanceof ServerResponse &&
  typeof (res as { hijack?: unknown }).hijack === 'function';

/**
 * Node's request under what Nest gives a controller, guard or filter: Express's request is Node's own object, Fastify's
 * wraps it (`request.raw`). Everything of the platform past this edge works on Node's objects, on either adapter.
 * @internal
 */
export function nodeRequest(req: unknown): IncomingMessage {
  return isFastifyRequest(req) ? req.raw : (req as IncomingMessage);
}

/**
 * Node's response under what Nest gives a controller or filter, taken over by the caller: on Fastify the reply is
 * hijacked first, so Fastify neither sends nor complains about what is written to Node's response (an SSE stream that
 * outlives the handler, say). Call it once the handler knows it will answer itself, after any exception Nest should
 * answer instead.
 * @internal
 */
export function nodeResponse(res: unknown): ServerResponse {
  if (!isFastifyReply(res)) return res as ServerResponse;
  if (!res.sent) res.hijack();
  return res.raw;
}

/**
 * The request's target as the client sent it: Express and Fastify's middleware layer may rewrite `url` for a mounted
 * router and keep the original beside it (`originalUrl`).
 * @internal
 */
export function requestTarget(req: IncomingMessage): string {
  return (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/';
}

/**
 * The path of a request target as the routers take it: out of an absolute-form target (`http://host/mcp`), without
 * the query or a fragment, percent-escapes decoded (Fastify's router matches `/%6Dcp` as `/mcp`). A path that cannot be
 * decoded is returned as sent (no route matches it). The one place a path is read from a target: checks gated on the
 * path (see McpHttpEntryMiddleware) must see what the router will route.
 * @internal
 */
export function pathOf(url: string | undefined): string {
  const path = literalPathOf(url);
  if (!path.includes('%')) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    return path; // malformed escapes: returned as sent
  }
}

/**
 * The path of a request target as sent, percent-escapes kept (what Express's router matches a static route against):
 * {@link pathOf} without the decoding.
 * @internal
 */
export function literalPathOf(url: string | undefined): string {
  let path = url ?? '/';
  if (!path.startsWith('/')) {
    const authority = ABSOLUTE_FORM.exec(path);
    if (authority) path = path.slice(authority[0].length);
  }
  const end = path.search(/[?#]/);
  if (end >= 0) path = path.slice(0, end);
  return path.startsWith('/') ? path : `/${path}`;
}

/**
 * The authority of a request target in absolute form (`http://127.0.0.1:3000/mcp` gives `127.0.0.1:3000`), as sent,
 * userinfo included; undefined for any other form (`/mcp`, `*`). RFC 9112 §3.2.2: a server takes the host from such a
 * target, not from `Host`.
 * @internal
 */
export function targetAuthority(url: string | undefined): string | undefined {
  if (url === undefined || url.startsWith('/')) return undefined;
  const match = ABSOLUTE_FORM.exec(url);
  return match ? match[1] : undefined;
}

/** The scheme and authority of an absolute-form request target (RFC 9112 §3.2.2); the authority is group 1. */
const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i;

/** The client's address as the socket sees it (no proxy header is trusted: the same on both adapters). @internal */
export function clientAddress(req: IncomingMessage): string {
  return req.socket?.remoteAddress ?? 'unknown';
}
