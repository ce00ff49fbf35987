import { Inject, Injectable, Logger } from '@nestjs/common';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { toJsonRpcError } from '../errors/error-mapper';
import { McpRegistry } from '../registry/mcp.registry';
import {
  ErrorCode,
  JsonRpcId,
  JsonRpcNotification,
  JsonRpcRequest,
  classifyMessage,
  isJsonRpcId,
  serialiseRawResult,
} from '../wire/json-rpc';
import { McpSession } from '../sessions/mcp-session';
import { McpPeer } from '../context/mcp-peer';
import { MessageSink } from '../wire/message-sink';
import { BATCH_PARALLELISM, joinBatchAnswer, mapBounded } from './batch-answer';
import { MethodResult } from './handlers/handler-context';
import { initializeResult } from './initialize';
import { McpSessionManager } from '../sessions/mcp-session.manager';
import { McpPrincipal } from '../auth/mcp-principal';
import { DispatchOutcome, failure } from './dispatch-outcome';
import { SESSION_ERA_METHODS, MODERN_METHODS, MethodTable, routeOf } from './method-table';
import { McpRequestRunner } from './request-runner';
import { McpAdmission } from '../admission/mcp-admission.service';
import { ModernHeaders, readModernMeta } from './eras/modern-meta';
import { ModernEnvelope } from './eras/modern-envelope';
import { checkParamHeaders } from './eras/param-headers';
import { McpError } from '../errors/mcp.error';
import { listenHandler } from './handlers/subscriptions.handler';
import { MCP_AUTH_CONFIG } from '../auth/auth.constants';
import { serverCapabilities } from './server-capabilities';
import { ProtocolVersion } from '../wire/protocol-version';

/** The metric label of a message that runs no handler, by kind (never the client's own text). */
const NOT_RUN = { invalid: 'invalid_request', response: 'response', notification: 'notification' } as const;

/** Where a 2026-07-28 request came from and how to answer it. @internal */
export interface ModernRequestContext {
  transport: 'http' | 'stdio';
  /** Where this request's own notifications (progress, logs) go. */
  sink: MessageSink;
  /** Correlation id (X-Request-Id). */
  rid?: string;
  principal?: McpPrincipal;
  /** Streamable HTTP's mirrored headers, checked against the body; absent on stdio. */
  headers?: ModernHeaders;
  /** Aborted when the client gives up on the request (HTTP: it closed the response stream): the call is cancelled. */
  closed?: AbortSignal;
}

/**
 * The method router: one JSON-RPC message in, at most one serialised response out, for both eras. A 2025 message runs
 * in its session; a 2026-07-28 request carries its own context in `_meta` and is served statelessly, as a peer of its
 * own (no session). Transports do framing only; everything with meaning happens here and in the invocation stage,
 * identically for HTTP and stdio.
 */
@Injectable()
export class McpDispatcher {
  private readonly logger = new Logger('McpDispatcher');
  /** The 2026-07-28 methods: the era's table and `subscriptions/listen`, which holds this replica's streams. */
  private readonly modern: MethodTable;
  private readonly envelope: ModernEnvelope;

  constructor(
    private readonly registry: McpRegistry,
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly sessions: McpSessionManager,
    private readonly runner: McpRequestRunner,
    private readonly admission: McpAdmission,
    @Inject(MCP_AUTH_CONFIG) private readonly auth: { mode: string },
  ) {
    const listen = listenHandler(sessions, () => serverCapabilities(registry), admission);
    this.modern = { ...MODERN_METHODS, 'subscriptions/listen': { handler: listen } };
    this.envelope = new ModernEnvelope(options);
  }

  /**
   * Handles one parsed JSON value of a 2025 session. Requests get an outcome; notifications and responses get
   * undefined (never answered), as do requests cancelled while running.
   */
  async dispatch(
    value: unknown,
    session: McpSession,
    sink: MessageSink,
    rid?: string,
    principal?: McpPrincipal,
  ): Promise<DispatchOutcome | undefined> {
    const msg = classifyMessage(value);
    // A message that runs no handler still counts against the caller's request budget (requests count in the runner):
    // a notification or response may cost a store write (a cancellation or an answer forwarded to another replica).
    // Over the budget an invalid message is answered -32003; a notification or response is dropped (never answered).
    // notifications/initialized belongs to initialize, which has its own budget (initializePerMinute).
    if (
      msg.kind !== 'request' &&
      !(msg.kind === 'notification' && msg.message.method === 'notifications/initialized')
    ) {
      const over = await this.admission.message(session.transport, principal ?? session.principal, NOT_RUN[msg.kind]);
      if (over) return msg.kind === 'invalid' ? failure(msg.id, over.code, over.message, over.data, rid) : undefined;
    }
    switch (msg.kind) {
      case 'invalid':
        return failure(msg.id, ErrorCode.InvalidRequest, `Invalid Request: ${msg.reason}`, undefined, rid);
      case 'response':
        if (!session.resolveResponse(msg.message)) this.sessions.forwardResponse(session, msg.message);
        return undefined;
      case 'notification':
        this.notification(msg.message, session);
        return undefined;
      case 'request':
        return this.request(msg.message, session, sink, rid, principal);
    }
  }

  /**
   * Handles one parsed JSON value of the 2026-07-28 era: its `_meta` (and headers) are checked, then it runs as a peer
   * of its own ({@link McpPeer.forRequest}), through the same handlers and invocation stage as a 2025 session's.
   */
  async dispatchModern(value: unknown, from: ModernRequestContext): Promise<DispatchOutcome | undefined> {
    const msg = classifyMessage(value);
    if (msg.kind === 'invalid')
      return this.refusedEarly(
        msg.id,
        { code: ErrorCode.InvalidRequest, message: `Invalid Request: ${msg.reason}` },
        from,
      );
    // No client notification or response has a meaning in this era over HTTP (cancellation is closing the stream).
    if (msg.kind !== 'request') return undefined;
    const request = msg.message;
    let peer: McpPeer;
    try {
      const meta = readModernMeta(request, from.headers);
      peer = McpPeer.forRequest(
        from.transport,
        meta.protocolVersion,
        meta.clientInfo,
        meta.clientCapabilities,
        meta.logLevel,
        from.principal,
      );
    } catch (error) {
      return this.refusedEarly(request.id, toJsonRpcError(error, request.method), from);
    }
    const route = routeOf(this.modern, request.method);
    if (!route) return this.runner.unknownMethod(request, peer, from.rid, from.principal);
    const tool = request.method === 'tools/call' ? this.registry.tools.get(request.params?.name as string) : undefined;
    if (tool?.headerParams.length && from.headers) {
      try {
        checkParamHeaders(tool.headerParams, request.params?.arguments, from.headers.params ?? {});
      } catch (error) {
        return this.refusedEarly(request.id, error as McpError, from);
      }
    }
    from.closed?.addEventListener('abort', () => peer.cancel(request.id), { once: true });
    const serialise = (id: JsonRpcId, result: MethodResult) => this.envelope.serialise(id, request.method, result);
    return this.runner.serve(request, route, peer, from.sink, serialise, from.rid, from.principal);
  }

  /**
   * A 2026-07-28 request refused before it runs (not JSON-RPC, bad `_meta`, a header mismatch): still counted against
   * the caller's request budget, so a flood of malformed requests is refused like any other (-32003 once over it).
   */
  private async refusedEarly(
    id: JsonRpcId | null,
    e: { code: number; message: string; data?: unknown },
    from: ModernRequestContext,
  ): Promise<DispatchOutcome> {
    const over = await this.admission.message(from.transport, from.principal, NOT_RUN.invalid);
    const { code, message, data } = over ?? e;
    return failure(id, code, message, data, from.rid);
  }

  private async request(
    request: JsonRpcRequest,
    session: McpSession,
    sink: MessageSink,
    rid?: string,
    principal?: McpPrincipal,
  ): Promise<DispatchOutcome | undefined> {
    const { id, method } = request;
    if (method === 'initialize') {
      if (session.initialized)
        return failure(id, ErrorCode.InvalidRequest, 'Invalid Request: session already initialized', undefined, rid);
      try {
        const capabilities = (v: ProtocolVersion) =>
          serverCapabilities(this.registry, v, this.auth.mode === 'disabled');
        const result = initializeResult(request.params ?? {}, session, capabilities, this.options);
        return { body: JSON.stringify({ jsonrpc: '2.0', id, result }) };
      } catch (error) {
        const e = toJsonRpcError(error, 'initialize');
        return failure(id, e.code, e.message, e.data, rid);
      }
    }
    if (!session.initialized && method !== 'ping') {
      return failure(id, ErrorCode.InvalidRequest, 'Invalid Request: send initialize first', undefined, rid);
    }
    const route = routeOf(SESSION_ERA_METHODS, method);
    if (!route) return this.runner.unknownMethod(request, session, rid, principal ?? session.principal);
    return this.runner.serve(request, route, session, sink, serialise, rid, principal ?? session.principal);
  }

  private notification(n: JsonRpcNotification, session: McpSession): void {
    switch (n.method) {
      case 'notifications/cancelled': {
        const requestId = n.params?.requestId;
        if (!isJsonRpcId(requestId)) return;
        const reason = typeof n.params?.reason === 'string' ? n.params.reason.slice(0, 200) : 'cancelled by client';
        this.logger.debug(`request cancelled by the client: ${reason}`);
        // Running on another replica: the sessions layer passes the cancellation on.
        if (!session.cancel(requestId)) this.sessions.forwardCancel(session, requestId);
        return;
      }
      default:
        // notifications/initialized, roots/list_changed, progress and unknown ones need no answer.
        return;
    }
  }

  /**
   * A JSON-RPC batch: accepted only from sessions on 2025-03-26, the one revision that had them.
   * Answers with the serialised array of responses, or undefined when nothing needs an answer.
   */
  async dispatchBatch(
    items: unknown[],
    session: McpSession,
    sink: MessageSink,
    rid?: string,
    principal?: McpPrincipal,
  ): Promise<DispatchOutcome | undefined> {
    if (!session.initialized || !session.era.batches) {
      return failure(
        null,
        ErrorCode.InvalidRequest,
        `Invalid Request: JSON-RPC batches are not supported${session.initialized ? ` in protocol ${session.protocolVersion}` : ' before initialize'}`,
        undefined,
        rid,
      );
    }
    if (items.length === 0)
      return failure(null, ErrorCode.InvalidRequest, 'Invalid Request: empty batch', undefined, rid);
    const tooLarge = this.admission.batch(items.length);
    if (tooLarge) return failure(null, tooLarge.code, tooLarge.message, tooLarge.data, rid);
    // A few messages at a time, in order: a batch cannot take every concurrency slot of its caller at once, and
    // the event loop serves other callers between its messages.
    const outcomes = await mapBounded(items, BATCH_PARALLELISM, (item) =>
      (item as { method?: unknown })?.method === 'initialize'
        ? batchedInitialize(item, rid)
        : this.dispatch(item, session, sink, rid, principal),
    );
    return joinBatchAnswer(items, outcomes, this.options.limits.maxBatchResponseBytes, rid);
  }
}

function batchedInitialize(item: unknown, rid?: string): DispatchOutcome | undefined {
  const msg = classifyMessage(item);
  if (msg.kind === 'notification') return undefined; // a valid notification is never answered
  const id = msg.kind === 'request' ? msg.message.id : msg.kind === 'invalid' ? msg.id : null;
  return failure(id, ErrorCode.InvalidRequest, 'Invalid Request: initialize must not be batched', undefined, rid);
}

/** A 2025 result as it is: no envelope. */
function serialise(id: JsonRpcId, result: MethodResult): string {
  if ('raw' in result && typeof result.raw === 'string' && Object.keys(result).length === 1)
    return serialiseRawResult(id, result.raw);
  return JSON.stringify({ jsonrpc: '2.0', id, result });
}
