import { Inject, Injectable, Logger } from '@nestjs/common';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../interfaces/mcp-module-options.interface';
import { LOGGING_LEVELS, LoggingLevel } from '../interfaces/call-context.interface';
import { McpError } from '../errors/mcp.error';
import { toJsonRpcError } from '../errors/error-mapper';
import { McpRegistry } from '../registry/mcp.registry';
import {
  ErrorCode,
  JsonRpcId,
  JsonRpcNotification,
  JsonRpcRequest,
  classifyMessage,
  errorResponse,
  isJsonRpcId,
  serialiseRawResult,
} from '../wire/json-rpc';
import { McpSession } from '../sessions/mcp-session';
import { MessageSink } from '../wire/message-sink';
import { BATCH_PARALLELISM, joinBatchAnswer, mapBounded } from './batch-answer';
import { answerOrAbort } from './answer-or-abort';
import { MethodHandler, MethodResult, RequestScope } from './handlers/handler-context';
import { callTool, listTools } from './handlers/tools.handler';
import { getPrompt, listPrompts } from './handlers/prompts.handler';
import { listResources, listTemplates, readResource, subscribe, unsubscribe } from './handlers/resources.handler';
import { complete } from './handlers/completion.handler';
import { initializeResult } from './initialize';
import { CallLimiter } from '../limits/call-limiter';
import { McpSessionManager } from '../sessions/mcp-session.manager';
import { McpPrincipal } from '../auth/mcp-principal';
import { InsufficientScopeError } from '../auth/insufficient-scope.error';
import { context } from '@opentelemetry/api';
import { McpCallObserver } from '../observability/mcp-call.observer';
import { errorClassOf, statusOfResult } from '../observability/call-outcome';
import { DispatchOutcome } from './dispatch-outcome';

/**
 * The method router: one JSON-RPC message in, at most one serialised response out. Transports do
 * framing only; everything with meaning happens here, identically for HTTP and stdio.
 */
@Injectable()
export class McpDispatcher {
  private readonly logger = new Logger('McpDispatcher');
  private readonly methods = new Map<string, MethodHandler>();

  constructor(
    private readonly registry: McpRegistry,
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly limiter: CallLimiter,
    private readonly sessions: McpSessionManager,
    private readonly observer: McpCallObserver,
  ) {
    this.methods.set('ping', () => ({}));
    this.methods.set('logging/setLevel', setLevel);
    this.methods.set('tools/list', this.needs('tools', listTools));
    this.methods.set('tools/call', this.needs('tools', callTool));
    this.methods.set('prompts/list', this.needs('prompts', listPrompts));
    this.methods.set('prompts/get', this.needs('prompts', getPrompt));
    this.methods.set('resources/list', this.needs('resources', listResources));
    this.methods.set('resources/read', this.needs('resources', readResource));
    this.methods.set('resources/templates/list', this.needs('resources', listTemplates));
    this.methods.set('resources/subscribe', this.needs('resources', subscribe));
    this.methods.set('resources/unsubscribe', this.needs('resources', unsubscribe));
    this.methods.set('completion/complete', this.needs('completions', complete));
  }

  /** The capabilities this registry supports; declared in `initialize`. */
  capabilities(): Record<string, unknown> {
    const r = this.registry;
    const caps: Record<string, unknown> = { logging: {} };
    if (r.tools.size) caps.tools = { listChanged: true };
    if (r.prompts.size) caps.prompts = { listChanged: true };
    if (r.resources.size || r.templates.size) caps.resources = { subscribe: true, listChanged: true };
    if (r.completions.size) caps.completions = {};
    return caps;
  }

  /**
   * Handles one parsed JSON value. Requests get an outcome; notifications and responses get
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
    switch (msg.kind) {
      case 'invalid':
        return fail(msg.id, ErrorCode.InvalidRequest, `Invalid Request: ${msg.reason}`, undefined, rid);
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
        return fail(id, ErrorCode.InvalidRequest, 'Invalid Request: session already initialized', undefined, rid);
      try {
        const result = initializeResult(request.params ?? {}, session, this.capabilities(), this.options);
        return { body: JSON.stringify({ jsonrpc: '2.0', id, result }) };
      } catch (error) {
        const e = toJsonRpcError(error, 'initialize');
        return fail(id, e.code, e.message, e.data, rid);
      }
    }
    if (!session.initialized && method !== 'ping') {
      return fail(id, ErrorCode.InvalidRequest, 'Invalid Request: send initialize first', undefined, rid);
    }
    const handler = this.methods.get(method);
    if (!handler) return fail(id, ErrorCode.MethodNotFound, 'Method not found', undefined, rid);
    const caller = principal ?? session.principal;
    const observed = this.observer.begin(request, session, rid, caller);
    const refuse = (code: number, message: string, data?: unknown) => {
      this.observer.end(observed, errorClassOf(code), code);
      return fail(id, code, message, data, rid);
    };
    if (this.sessions.draining && method !== 'ping') {
      return refuse(
        ErrorCode.UpstreamUnavailable,
        'Unavailable: the server is shutting down; retry on another instance',
        { reason: 'shutting_down', retryAfter: 1 },
      );
    }

    try {
      // Every request counts against the caller's request budget, whatever its kind: pings and lists too.
      await this.limiter.admit(session, caller, this.methods.has(method) ? method : 'other');
    } catch (error) {
      const e = toJsonRpcError(error, method);
      return refuse(e.code, e.message, e.data);
    }

    const key = McpSession.inflightKey(id);
    if (session.inflight.has(key))
      return refuse(ErrorCode.InvalidRequest, 'Invalid Request: id already in use by a running request');
    const call = { controller: new AbortController(), cancelled: false };
    session.inflight.set(key, call);
    const scope: RequestScope = {
      requestId: rid,
      // The caller of this request (its token), not whoever last used the session.
      principal: caller,
      abort: (reason: unknown) => call.controller.abort(reason),
      request,
      params: request.params ?? {},
      session,
      sink,
      signal: call.controller.signal,
      registry: this.registry,
      options: this.options,
      limiter: this.limiter,
    };
    try {
      // The request's span is active while it runs: the pipeline, the handler and its own calls nest under it.
      const work = observed.ctx ? context.with(observed.ctx, () => handler(scope)) : handler(scope);
      const result = await answerOrAbort(work, call.controller.signal);
      if (call.cancelled) {
        this.observer.end(observed, 'cancelled');
        return undefined;
      }
      this.observer.end(observed, statusOfResult(result));
      return { body: serialise(id, result) };
    } catch (error) {
      if (call.cancelled) {
        this.observer.end(observed, 'cancelled');
        return undefined;
      }
      const e = toJsonRpcError(error, method);
      const outcome = refuse(e.code, e.message, e.data);
      if (error instanceof InsufficientScopeError) outcome.scopeDenied = error.requiredScopes;
      return outcome;
    } finally {
      session.inflight.delete(key);
    }
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

  private needs(capability: 'tools' | 'prompts' | 'resources' | 'completions', handler: MethodHandler): MethodHandler {
    const r = this.registry;
    const has = {
      tools: () => r.tools.size > 0,
      prompts: () => r.prompts.size > 0,
      resources: () => r.resources.size > 0 || r.templates.size > 0,
      completions: () => r.completions.size > 0,
    }[capability];
    return (scope) => {
      if (!has()) throw new McpError(ErrorCode.MethodNotFound, 'Method not found');
      return handler(scope);
    };
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
      return fail(
        null,
        ErrorCode.InvalidRequest,
        `Invalid Request: JSON-RPC batches are not supported${session.initialized ? ` in protocol ${session.protocolVersion}` : ' before initialize'}`,
        undefined,
        rid,
      );
    }
    if (items.length === 0) return fail(null, ErrorCode.InvalidRequest, 'Invalid Request: empty batch', undefined, rid);
    const { maxBatchSize, maxBatchResponseBytes } = this.options.limits;
    if (items.length > maxBatchSize) {
      return fail(
        null,
        ErrorCode.InvalidRequest,
        `Invalid Request: a batch holds at most ${maxBatchSize} messages (got ${items.length})`,
        { reason: 'batch_too_large', max: maxBatchSize },
        rid,
      );
    }
    // A few messages at a time, in order: a batch cannot take every concurrency slot of its caller at once, and
    // the event loop serves other callers between its messages.
    const outcomes = await mapBounded(items, BATCH_PARALLELISM, (item) =>
      (item as { method?: unknown })?.method === 'initialize'
        ? batchedInitialize(item, rid)
        : this.dispatch(item, session, sink, rid, principal),
    );
    return joinBatchAnswer(items, outcomes, maxBatchResponseBytes, rid);
  }
}

function batchedInitialize(item: unknown, rid?: string): DispatchOutcome | undefined {
  const msg = classifyMessage(item);
  if (msg.kind === 'notification') return undefined; // a valid notification is never answered
  const id = msg.kind === 'request' ? msg.message.id : msg.kind === 'invalid' ? msg.id : null;
  return fail(id, ErrorCode.InvalidRequest, 'Invalid Request: initialize must not be batched', undefined, rid);
}

function setLevel({ params, session }: RequestScope): MethodResult {
  if (!(LOGGING_LEVELS as readonly string[]).includes(params.level as string)) {
    throw new McpError(ErrorCode.InvalidParams, 'Invalid params: level must be a syslog level', {
      field: 'level',
      reason: 'enum',
    });
  }
  session.setLogLevel(params.level as LoggingLevel);
  return {};
}

function serialise(id: JsonRpcId, result: MethodResult): string {
  if ('raw' in result && typeof result.raw === 'string' && Object.keys(result).length === 1)
    return serialiseRawResult(id, result.raw);
  return JSON.stringify({ jsonrpc: '2.0', id, result });
}

function fail(id: JsonRpcId | null, code: number, message: string, data?: unknown, rid?: string): DispatchOutcome {
  // error.data carries the correlation id (Appendix B.3) next to field/reason/retryAfter.
  const withId = rid === undefined ? data : { ...(data as Record<string, unknown> | undefined), requestId: rid };
  return { body: JSON.stringify(errorResponse(id, code, message, withId)), errorCode: code, errorData: data };
}
