import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '../../wire/json-rpc';
import { isModernVersion, isSupportedVersion } from '../../wire/protocol-version';
import { accepts, mediaType, requestIdOfBody } from './http-checks';
import { sendHttpError } from '../../errors/send-http-error';
import { refusedContentCoding } from './content-coding';

const VERSION_HEADER = 'mcp-protocol-version';

/**
 * A POST to the MCP endpoint whose headers cannot carry MCP: a content coding it does not take, a body that is not
 * JSON (415), or an `Accept` without both JSON and SSE (406). Answers it and returns true; false when it may go on.
 * @internal
 */
export function refusedPostHeaders(req: IncomingMessage, res: ServerResponse): boolean {
  if (refusedContentCoding(req, res)) return true;
  if (mediaType(req) !== 'application/json') {
    sendHttpError(res, 415, ErrorCode.InvalidRequest, 'Unsupported Media Type: Content-Type must be application/json');
    return true;
  }
  if (!accepts(req.headers.accept, 'application/json') || !accepts(req.headers.accept, 'text/event-stream')) {
    sendHttpError(
      res,
      406,
      ErrorCode.InvalidRequest,
      'Not Acceptable: Accept must list application/json and text/event-stream',
    );
    return true;
  }
  return false;
}

/**
 * A 2025-era POST whose `MCP-Protocol-Version` does not fit it: a batch announced as 2026-07-28 (which has none), or
 * a revision this server does not speak. Answers it (400) and returns true; false when it may go on.
 * @internal
 */
export function refusedVersion(body: unknown, req: IncomingMessage, res: ServerResponse): boolean {
  const version = req.headers[VERSION_HEADER] as string | undefined;
  if (Array.isArray(body) && isModernVersion(version)) {
    sendHttpError(res, 400, ErrorCode.InvalidRequest, 'Invalid Request: 2026-07-28 has no JSON-RPC batches');
    return true;
  }
  if (version !== undefined && !isSupportedVersion(version)) {
    const id = requestIdOfBody(body);
    sendHttpError(res, 400, ErrorCode.InvalidRequest, 'Bad Request: unsupported MCP-Protocol-Version', {}, id);
    return true;
  }
  return false;
}
