import { Inject, Injectable } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MCP_MODULE_OPTIONS } from '../../mcp.constants';
import { ResolvedMcpOptions } from '../../options/mcp-module-options.interface';
import { McpDispatcher } from '../../protocol/mcp.dispatcher';
import { McpSessionManager } from '../../sessions/mcp-session.manager';
import { ErrorCode, JsonRpcId, errorResponse } from '../../wire/json-rpc';
import { McpError } from '../../errors/mcp.error';
import { SessionCount } from '../../sessions/session-count';
import { McpSession } from '../../sessions/mcp-session';
import { McpAdmission } from '../../admission/mcp-admission.service';
import { MCP_EVENT_STORE, McpEventStore } from '../../stores/event.store';
import { readJsonBody, requestIdOfBody } from './http-checks';
import { sendHttpError } from '../../errors/send-http-error';
import { refusedPostHeaders, refusedVersion } from './post-checks';
import { storeUnavailable } from './http-refusals';
import { PostResponseChannel } from './post-response.channel';
import { existingRequestId as requestIdOf, responseRequestId } from '../../http-adapter/request-id';
import { httpStatusFor } from '../../errors/http-status';
import { bindPrincipal } from '../../sessions/session-binding';
import { assertAnonymousMayCall } from '../../auth/anonymous-access';
import { McpChallenge } from '../../auth/mcp-challenge';
import { principalOf } from '../../auth/mcp-principal';
import { ModernHttpHandler, isModernPost } from './modern-http.handler';
import { McpSessionStreams } from './session-streams.service';
import { EventLogBudget } from '../../limits/event-log-budget';
import { tooManyRequests } from './http-refusals';
import { findHttpSession } from './http-session.lookup';
import { sendJson } from '../../http-adapter/json-response';
import { offerRequestSpan } from '../../observability/mcp-http-trace.middleware';

const SESSION_HEADER = 'mcp-session-id';

/**
 * Streamable HTTP over Express: POSTs of the 2025 revisions' sessions here (GET streams, resumption and DELETE in
 * {@link McpSessionStreams}); 2026-07-28 requests handed to {@link ModernHttpHandler}. Framing, headers and SSE only;
 * meaning lives in the dispatcher.
 * @internal
 */
@Injectable()
export class McpHttpService {
  constructor(
    private readonly dispatcher: McpDispatcher,
    private readonly sessions: McpSessionManager,
    @Inject(MCP_EVENT_STORE) private readonly events: McpEventStore,
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly challenge: McpChallenge,
    private readonly admission: McpAdmission,
    private readonly sessionCount: SessionCount,
    private readonly modern: ModernHttpHandler,
    private readonly sessionStreams: McpSessionStreams,
    private readonly budget: EventLogBudget,
  ) {}

  async post(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (refusedPostHeaders(req, res)) return;
    // Admission (admission/request-kinds.ts, row `POST /mcp`): a caller known to be over its request budget is
    // refused before its body is read.
    const wait = this.admission.unread('http', principalOf(req));
    if (wait !== undefined) return tooManyRequests(res, wait);
    // With Nest's global body parser on (see docs/deploying.md), Express has already read and parsed the body.
    const parsed = await readJsonBody(req, res, this.options.maxRequestBytes, this.options.limits.maxJsonDepth);
    if (!parsed) {
      // Refused already (too large, too deep, not JSON); it still counts against the caller's request budget.
      await this.admission.request('http', principalOf(req), 'invalid_request').catch(() => undefined);
      return;
    }
    const body = parsed.value;
    assertAnonymousMayCall(req, body);
    // One message: its MCP request (if it is one) takes the request's span instead of starting a second.
    if (!Array.isArray(body)) offerRequestSpan(res);
    // A 2026-07-28 request carries its own context: served statelessly beside the 2025 sessions.
    if (isModernPost(body, req)) return this.modern.post(body, req, res);
    if (refusedVersion(body, req, res)) return;
    const sessionId = req.headers[SESSION_HEADER] as string | undefined;
    if (!Array.isArray(body) && (body as { method?: unknown })?.method === 'initialize' && 'id' in (body as object)) {
      if (sessionId !== undefined)
        return sendHttpError(
          res,
          400,
          ErrorCode.InvalidRequest,
          'Bad Request: initialize must not carry an Mcp-Session-Id',
          {},
          requestIdOfBody(body),
        );
      return this.initialize(body, req, res);
    }
    const session = await findHttpSession(this.sessions, sessionId, req, res, requestIdOfBody(body));
    if (!session) return;
    return this.inSession(body, session, req, res);
  }

  /** A 2025 session's batch, notification, response or request; only a request may answer as an SSE stream. */
  private async inSession(body: unknown, session: McpSession, req: IncomingMessage, res: ServerResponse) {
    const headers = { 'Mcp-Session-Id': session.id };
    const sink = session.standalone ?? nullSink;
    if (Array.isArray(body)) {
      const outcome = await this.dispatcher.dispatchBatch(body, session, sink, requestIdOf(req), principalOf(req));
      if (!outcome) return void res.writeHead(202, headers).end();
      // A batch refused as a whole (empty, or not allowed in this revision) is one error, like any body that is not a
      // message.
      return sendJson(res, outcome.errorCode !== undefined ? 400 : 200, headers, outcome.body);
    }
    const isRequest = typeof (body as { method?: unknown })?.method === 'string' && 'id' in (body as object);
    if (!isRequest) {
      const outcome = await this.dispatcher.dispatch(body, session, sink, requestIdOf(req), principalOf(req));
      if (outcome) return sendJson(res, 400, headers, outcome.body);
      return void res.writeHead(202, headers).end();
    }
    const channel = new PostResponseChannel(
      res,
      session,
      this.events,
      headers,
      this.options.sseRetryMs,
      this.sessionStreams.streams,
      this.budget,
    );
    const outcome = await this.dispatcher.dispatch(body, session, channel, requestIdOf(req), principalOf(req));
    // Cancelled requests get no response: their stream (opened now if need be) just ends.
    if (!outcome) return channel.abandon();
    if (outcome.scopeDenied && !res.headersSent) {
      res.setHeader('WWW-Authenticate', this.challenge.insufficientScope(req, outcome.scopeDenied.join(' ')));
      return channel.finish(outcome.body, 403);
    }
    const status = httpStatusFor(outcome.errorCode, this.options.httpStatusProfile, true);
    const retryAfter = (outcome.errorData as { retryAfter?: number } | undefined)?.retryAfter;
    // 429 (rate limited) and 503 (shutting down, upstream unavailable) tell the client when to come back.
    if ((status === 429 || status === 503) && !res.headersSent) res.setHeader('Retry-After', String(retryAfter ?? 1));
    channel.finish(outcome.body, status);
  }

  private async initialize(body: unknown, req: IncomingMessage, res: ServerResponse): Promise<void> {
    let refusal: McpError | undefined;
    try {
      refusal = await this.admission.session(principalOf(req));
    } catch (error) {
      return storeUnavailable(res, error);
    }
    if (refusal) return this.refuse(body, refusal, res);
    const session = this.sessions.createHttpSession();
    bindPrincipal(session, req);
    this.sessionCount.track(session);
    const outcome = await this.dispatcher.dispatch(body, session, nullSink, requestIdOf(req), principalOf(req));
    if (!outcome || outcome.errorCode !== undefined || !session.initialized) {
      this.sessions.close(session);
      sendJson(res, 400, {}, outcome?.body);
      return;
    }
    // Shared before the client learns its id: its next request may reach any replica.
    try {
      await this.sessions.persist(session);
    } catch (error) {
      this.sessions.close(session);
      return storeUnavailable(res, error);
    }
    sendJson(res, 200, { 'Mcp-Session-Id': session.id }, outcome.body);
  }

  /** A refused initialize: the JSON-RPC error with the profile's status, and `Retry-After` when it has one. */
  private refuse(body: unknown, error: McpError, res: ServerResponse): void {
    const status = httpStatusFor(error.code, this.options.httpStatusProfile, false);
    const requestId = responseRequestId(res);
    const data = { ...error.data, ...(requestId !== undefined ? { requestId } : {}) };
    const retryAfter = (error.data as { retryAfter?: number } | undefined)?.retryAfter;
    sendJson(
      res,
      status,
      retryAfter !== undefined ? { 'Retry-After': String(retryAfter) } : {},
      JSON.stringify(errorResponse((body as { id?: JsonRpcId }).id ?? null, error.code, error.message, data)),
    );
  }
}

const nullSink = { send: () => false };
