import { Inject, Injectable, Logger } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MCP_MODULE_OPTIONS } from '../../mcp.constants';
import { ResolvedMcpOptions } from '../../options/mcp-module-options.interface';
import { McpDispatcher } from '../../protocol/mcp.dispatcher';
import { McpSessionManager } from '../../sessions/mcp-session.manager';
import { McpSession } from '../../sessions/mcp-session';
import { McpError } from '../../errors/mcp.error';
import { ErrorCode, classifyMessage } from '../../wire/json-rpc';
import { accepts, mediaType, readJsonBody } from '../http/http-checks';
import { sendHttpError } from '../../errors/send-http-error';
import { refusedContentCoding } from '../http/content-coding';
import { LegacySseStream } from './legacy-sse.stream';
import { StreamRelease } from '../../admission/stream-limiter';
import { McpAdmission } from '../../admission/mcp-admission.service';
import { SessionCount } from '../../sessions/session-count';
import { messagesEndpoint } from './legacy-sse.endpoint';
import { bindPrincipal } from '../../sessions/session-binding';
import { assertAnonymousMayCall, isAnonymous } from '../../auth/anonymous-access';
import { McpAuthError } from '../../auth/mcp-auth.error';
import { existingRequestId as requestIdOf } from '../../http-adapter/request-id';
import { principalOf } from '../../auth/mcp-principal';
import { sendJson } from '../../http-adapter/json-response';
import { sendRefusal } from '../http/http-refusals';
import { requestTarget } from '../../http-adapter/node-http';

/**
 * The HTTP+SSE transport of MCP 2024-11-05 (off by default; `legacySse: true` or
 * `MCP_LEGACY_SSE=true`): `GET /sse` opens a session and its stream, `POST /messages?sessionId=`
 * carries the client's messages, and every answer goes back on the stream. Framing only; the
 * dispatcher, registry and session manager are the ones Streamable HTTP and stdio use.
 * @internal
 */
@Injectable()
export class LegacySseService {
  private readonly logger = new Logger('McpLegacySse');
  /** The open streams by session id: only these sessions are reachable through `/messages`. */
  private readonly streams = new Map<string, LegacySseStream>();
  /** The stream place of each session (see McpAdmission.stream), given back when the session closes. */
  private readonly releases = new Map<string, StreamRelease>();

  constructor(
    private readonly dispatcher: McpDispatcher,
    private readonly sessions: McpSessionManager,
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly admission: McpAdmission,
    private readonly sessionCount: SessionCount,
  ) {
    // A session closed elsewhere (idle expiry, shutdown) ends its stream.
    sessions.onClose((s) => {
      this.releases.get(s.id)?.();
      this.releases.delete(s.id);
      const stream = this.streams.get(s.id);
      if (!stream) return;
      this.streams.delete(s.id);
      stream.end();
    });
  }

  /** `GET /sse`: a new session, its stream, and the `endpoint` event. */
  async open(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (isAnonymous(req)) throw new McpAuthError(401, undefined, 'Authentication required', 'anonymous GET /sse');
    if (!accepts(req.headers.accept, 'text/event-stream')) {
      return sendHttpError(res, 406, ErrorCode.InvalidRequest, 'Not Acceptable: Accept must allow text/event-stream');
    }
    const refusal = await this.admission.session(principalOf(req)).catch(
      () =>
        new McpError(ErrorCode.UpstreamUnavailable, 'Unavailable: the session store cannot be reached; retry shortly', {
          retryAfter: 2,
        }),
    );
    if (refusal) return sendRefusal(res, refusal, 'GET /sse');
    let release: StreamRelease;
    try {
      release = await this.admission.stream('http', principalOf(req));
    } catch (error) {
      return sendRefusal(res, error, 'GET /sse');
    }
    const session = this.sessions.createHttpSession();
    this.releases.set(session.id, release);
    session.legacySse = true;
    bindPrincipal(session, req);
    this.sessionCount.track(session);
    const stream = new LegacySseStream(() => {
      // The client went away: in this protocol the session ends with its stream.
      this.streams.delete(session.id);
      this.sessions.close(session);
    });
    this.streams.set(session.id, stream);
    session.standalone = stream;
    stream.open(res, messagesEndpoint(requestTarget(req), session.id));
  }

  /** `POST /messages?sessionId=`: 202 for a message taken; its answer, if any, goes on the stream. */
  async message(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (refusedContentCoding(req, res)) return;
    if (mediaType(req) !== 'application/json') {
      return sendHttpError(
        res,
        415,
        ErrorCode.InvalidRequest,
        'Unsupported Media Type: Content-Type must be application/json',
      );
    }
    const target = await this.sessionFor(req, res);
    if (!target) return;
    const parsed = await readJsonBody(req, res, this.options.maxRequestBytes, this.options.limits.maxJsonDepth);
    if (!parsed) return;
    const { session, stream } = target;
    const body = parsed.value;
    assertAnonymousMayCall(req, body);
    if (!Array.isArray(body) && classifyMessage(body).kind === 'invalid') {
      // Not a message at all: refused on the POST itself, as no id can route an answer on the stream.
      const outcome = await this.dispatcher.dispatch(body, session, stream);
      return sendJson(res, 400, {}, outcome?.body);
    }
    res.writeHead(202).end();
    try {
      const outcome = Array.isArray(body)
        ? await this.dispatcher.dispatchBatch(body, session, stream, requestIdOf(req), principalOf(req))
        : await this.dispatcher.dispatch(body, session, stream, requestIdOf(req), principalOf(req));
      if (outcome) stream.sendSerialised(outcome.body);
    } catch (error) {
      this.logger.error(`dispatch failed: ${(error as Error).message}`, (error as Error).stack);
    }
  }

  private async sessionFor(
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<{ session: McpSession; stream: LegacySseStream } | undefined> {
    const id = new URL(requestTarget(req), 'http://localhost').searchParams.get('sessionId');
    if (!id) {
      sendHttpError(res, 400, ErrorCode.InvalidRequest, 'Bad Request: the sessionId query parameter is required');
      return undefined;
    }
    const stream = id.length <= 128 ? this.streams.get(id) : undefined;
    const session = stream ? await this.sessions.find(id) : undefined;
    if (!stream || !session) {
      sendHttpError(
        res,
        404,
        ErrorCode.InvalidRequest,
        'Not Found: session unknown or closed; open a new one with GET /sse',
      );
      return undefined;
    }
    bindPrincipal(session, req);
    return { session, stream };
  }
}
