import { DEFAULT_MAX_JSON_DEPTH, nestingExceeds, valueNestingExceeds } from '../../wire/json-depth';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, JsonRpcId, isJsonRpcId } from '../../wire/json-rpc';
import { sendHttpError } from '../../errors/send-http-error';

/** The id of a parsed JSON-RPC request body, when it has a valid one. @internal */
export function requestIdOfBody(body: unknown): JsonRpcId | null {
  const id = !Array.isArray(body) && typeof body === 'object' && body !== null ? (body as { id?: unknown }).id : null;
  return isJsonRpcId(id) ? id : null;
}

/** The media type of `Content-Type`, lower-cased, without parameters (`''` when absent). @internal */
export function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

/**
 * Reads and parses a JSON body within `limit` bytes, answering 413 (`-32005`) or 400 (`-32700`)
 * itself; undefined when it did. A body Nest's global parser already read is taken as parsed.
 * @internal
 */
export async function readJsonBody(
  req: IncomingMessage,
  res: ServerResponse,
  limit: number,
  maxDepth = DEFAULT_MAX_JSON_DEPTH,
): Promise<{ value: unknown } | undefined> {
  if ((req as { _body?: boolean })._body === true) {
    // Express's own parser has parsed it already: the depth can only be checked now.
    const body = (req as { body?: unknown }).body;
    if (valueNestingExceeds(body, maxDepth)) return void tooDeep(res, maxDepth);
    return { value: body };
  }
  const raw = receivedBody(req, limit) ?? (await readBody(req, limit).catch(() => undefined));
  if (raw === undefined)
    return void sendHttpError(res, 400, ErrorCode.ParseError, 'Parse error: the body could not be read');
  if (raw === 'too-large') {
    // The connection stays open while the rest of the body is read and dropped (bounded, see readBody): closed at
    // once, a client still sending it would get a reset instead of this answer.
    return void sendHttpError(res, 413, ErrorCode.PayloadTooLarge, `Payload too large: the limit is ${limit} bytes`);
  }
  const text = raw.toString('utf8');
  if (nestingExceeds(text, maxDepth)) return void tooDeep(res, maxDepth);
  try {
    return { value: JSON.parse(text) };
  } catch {
    return void sendHttpError(res, 400, ErrorCode.ParseError, 'Parse error: the body is not valid JSON');
  }
}

/** 400 `-32600` for a body nested deeper than the limit (refused before it is parsed). */
function tooDeep(res: ServerResponse, maxDepth: number): void {
  const message = `Invalid Request: JSON nested deeper than ${maxDepth} levels`;
  sendHttpError(res, 400, ErrorCode.InvalidRequest, message, {}, null, { reason: 'too_deep', maxDepth });
}

/**
 * How much of a refused body is still read (and dropped) so that the client, still sending it, gets the 413 instead of
 * a connection reset; past that the connection is cut.
 */
const DISCARD_BYTES = 4 * 1024 * 1024;

/** Reads and drops the rest of a refused body, up to {@link DISCARD_BYTES}; a longer one loses its connection. */
function discardRest(req: IncomingMessage): void {
  let seen = 0;
  req.removeAllListeners('data');
  req.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > DISCARD_BYTES) req.destroy();
  });
  req.resume();
}

/**
 * The body when Node has received all of it already (as for a small request, whose body came in the packet of its
 * headers: parsed before any handler runs), taken from the stream's buffer at once: no listeners, no promise. Else
 * undefined, and the body is read as it comes (readBody).
 */
function receivedBody(req: IncomingMessage, limit: number): Buffer | undefined {
  if (!req.complete || req.readableFlowing !== null || req.readableLength > limit) return undefined;
  if (req.readableLength === 0) return req.readableEnded || req.readableAborted ? undefined : EMPTY;
  return (req.read() as Buffer | null) ?? undefined;
}
const EMPTY = Buffer.alloc(0);

/** Reads the raw body, refusing more than `limit` bytes while reading. @internal */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    discardRest(req);
    return Promise.resolve('too-large');
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        discardRest(req);
        resolve('too-large');
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => !done && ((done = true), resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks))));
    req.on('error', (e) => !done && ((done = true), reject(e)));
  });
}

/**
 * Answers of {@link accepts} for the Accept headers seen last: a client sends the same one with every request, so
 * parsing it once per header value (not twice per request) is enough. Bounded: cleared when full.
 */
const accepted = new Map<string, Map<string, boolean>>();
const ACCEPTED_MAX = 256;

/** True when a media-type list names `type` (or a wildcard that covers it). @internal */
export function accepts(header: string | undefined, type: string): boolean {
  if (!header) return false;
  let seen = accepted.get(type);
  if (!seen) accepted.set(type, (seen = new Map()));
  let answer = seen.get(header);
  if (answer === undefined) {
    const [major] = type.split('/');
    answer = header.split(',').some((part) => {
      const t = part.split(';')[0].trim().toLowerCase();
      return t === type || t === `${major}/*` || t === '*/*';
    });
    if (seen.size >= ACCEPTED_MAX) seen.clear();
    seen.set(header, answer);
  }
  return answer;
}

export { ErrorCode };
