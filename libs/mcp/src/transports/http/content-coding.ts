import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '../../wire/json-rpc';
import { sendHttpError } from '../../errors/send-http-error';

/** The content codings a request body may come in: none (the transports read bodies as sent). */
const ACCEPTED_CODINGS = ['identity'];

/**
 * Answers 415 (`-32600`, the accepted codings in `data.accepted` and in `Accept-Encoding`, RFC 9110 §12.5.3) and
 * returns true when the body comes in a content coding the server does not decode (`Content-Encoding: gzip`, say):
 * read as sent, such a body would be parsed as if it were plain JSON. `identity`, or no header, goes on; so does a
 * body an app's own Express body parser has read already (it decodes gzip and deflate itself; see readJsonBody).
 * @internal
 */
export function refusedContentCoding(req: IncomingMessage, res: ServerResponse): boolean {
  const coding = req.headers['content-encoding'];
  if (coding === undefined || (req as { _body?: boolean })._body === true) return false;
  const codings = coding.split(',').map((c) => c.trim().toLowerCase());
  if (codings.every((c) => ACCEPTED_CODINGS.includes(c))) return false;
  sendHttpError(
    res,
    415,
    ErrorCode.InvalidRequest,
    'Unsupported Media Type: Content-Encoding must be identity (no compression)',
    { 'Accept-Encoding': ACCEPTED_CODINGS.join(', ') },
    null,
    { accepted: ACCEPTED_CODINGS },
  );
  return true;
}
