import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** Accepted `X-Request-Id` values: bounded, safe characters only; anything else is replaced. */
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const KEY = Symbol('mcpRequestId');
/** The id a response announces when its head is written (see {@link announceRequestId}). */
const AT_HEAD = Symbol('mcpRequestIdAtHead');
/** The headers `writeHead` was given with the id (Node does not keep them: see {@link responseHeader}). */
const HEAD = Symbol('mcpWrittenHead');
type Announcing = ServerResponse & { [AT_HEAD]?: string; [HEAD]?: OutgoingHttpHeaders };

/**
 * The correlation id of an HTTP request, decided once: the caller's `X-Request-Id` when it is
 * safe, a fresh UUID otherwise; set on the response when one is given. Whichever middleware asks first (the access
 * log or the MCP entry middleware) decides, so logs, spans and `error.data` agree.
 * @internal
 */
export function requestIdFor(req: IncomingMessage, res?: ServerResponse): string {
  const holder = req as IncomingMessage & { [KEY]?: string };
  let id = holder[KEY];
  if (id === undefined) {
    const given = req.headers['x-request-id'];
    id = typeof given === 'string' && SAFE_ID.test(given) ? given : randomUUID();
    holder[KEY] = id;
  }
  if (res && (res as Announcing)[AT_HEAD] === undefined && !res.headersSent && !res.hasHeader('X-Request-Id'))
    res.setHeader('X-Request-Id', id);
  return id;
}

/** The correlation id of a request, if one was decided. @internal */
export const existingRequestId = (req: IncomingMessage): string | undefined =>
  (req as IncomingMessage & { [KEY]?: string })[KEY];

/**
 * Gives `res` its `X-Request-Id` when its head is written rather than now (the MCP endpoints, whose answers write
 * their whole head at once). A header set before `writeHead` makes Node merge every header of the head one by one,
 * validating each again (its "progressive" path); written with the head, they go out as given: about a tenth of what
 * the MCP stack costs a fast call. Every writer still announces it, whatever writes the head (our transport, a Nest
 * filter, the adapter): the response's own `writeHead` adds it. Read it with {@link responseRequestId}.
 * @internal
 */
export function announceRequestId(res: ServerResponse, id: string): void {
  if (res.headersSent || res.hasHeader('X-Request-Id')) return;
  (res as Announcing)[AT_HEAD] = id;
  res.writeHead = writeHeadWithRequestId as ServerResponse['writeHead'];
}

/** The `X-Request-Id` a response carries or will carry, if any. @internal */
export function responseRequestId(res: ServerResponse): string | undefined {
  const id = (res as Announcing)[AT_HEAD] ?? (typeof res.getHeader === 'function' ? res.getHeader('X-Request-Id') : '');
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/**
 * A header of `res` as it was set or written. Node keeps no copy of the headers given to `writeHead` when none was set
 * before (`getHeader` does not see them): those of a response whose id is announced at its head are kept here.
 * @internal
 */
export function responseHeader(res: ServerResponse, name: string): OutgoingHttpHeaders[string] {
  const set = res.getHeader(name);
  const head = (res as Announcing)[HEAD];
  if (set !== undefined || !head) return set;
  const lower = name.toLowerCase();
  for (const key of Object.keys(head)) if (key.toLowerCase() === lower) return head[key];
  return undefined;
}

/** `writeHead`, with the response's announced id among the head's headers unless it has one already. */
function writeHeadWithRequestId(
  this: Announcing,
  statusCode: number,
  reason?: string | OutgoingHttpHeaders | unknown[],
  given?: OutgoingHttpHeaders | unknown[],
): ServerResponse {
  const write = (Object.getPrototypeOf(this) as ServerResponse).writeHead as (...args: unknown[]) => ServerResponse;
  const id = this[AT_HEAD]!;
  const headers = typeof reason === 'string' ? given : reason;
  if (this.hasHeader('X-Request-Id')) return write.call(this, statusCode, reason, given);
  if (headers === undefined || headers === null || Array.isArray(headers)) {
    // No head given (Node writes it for `end()`), or one given as a list: the id is set, and Node merges as it does.
    this.setHeader('X-Request-Id', id);
    return write.call(this, statusCode, reason, given);
  }
  if (headers['X-Request-Id'] !== undefined || headers['x-request-id'] !== undefined)
    return write.call(this, statusCode, reason, given);
  const withId = { ...headers, 'X-Request-Id': id };
  this[HEAD] = withId;
  return typeof reason === 'string'
    ? write.call(this, statusCode, reason, withId)
    : write.call(this, statusCode, withId);
}
