import { Inject, Injectable } from '@nestjs/common';
import { context } from '@opentelemetry/api';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { toJsonRpcError } from '../errors/error-mapper';
import { McpRegistry } from '../registry/mcp.registry';
import { ErrorCode, JsonRpcId, JsonRpcRequest } from '../wire/json-rpc';
import { McpPeer } from '../context/mcp-peer';
import { MessageSink } from '../wire/message-sink';
import { JsonRpcRefusal, McpAdmission } from '../admission/mcp-admission.service';
import { passes } from '../admission/request-kinds';
import { McpSessionManager } from '../sessions/mcp-session.manager';
import { McpPrincipal } from '../auth/mcp-principal';
import { InsufficientScopeError } from '../auth/insufficient-scope.error';
import { McpCallObserver } from '../observability/mcp-call.observer';
import { errorClassOf, statusOfResult } from '../observability/call-outcome';
import { InflightCall } from '../context/inflight-call';
import { MethodResult, HandlerContext } from './handlers/handler-context';
import { MethodRoute } from './method-table';
import { serves } from './server-capabilities';
import { DispatchOutcome, failure } from './dispatch-outcome';
import { RequestStateCodec } from '../pipeline/request-state.codec';
import { IdempotencyKeeper } from '../pipeline/idempotency.keeper';
import { callScopeEnabled } from '../pipeline/call-scope';
import { McpTasks } from '../tasks/mcp-tasks.service';
import { progressTokenProblem, MAX_TOKEN_CHARS } from '../wire/request-bounds';

/** The metric label of requests whose method is unknown (never the client's own text). */
const UNKNOWN_METHOD = 'unknown_method';

/** Turns a handler's result into the response text (each era has its own envelope). @internal */
export type ResultSerialiser = (id: JsonRpcId, result: MethodResult) => string;

/**
 * Runs one request whose method is known, in either era: observed (span, metrics, call log), refused while draining,
 * counted against the caller's request budget, registered for cancellation, answered or aborted.
 * @internal
 */
@Injectable()
export class McpRequestRunner {
  constructor(
    private readonly registry: McpRegistry,
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly admission: McpAdmission,
    private readonly sessions: McpSessionManager,
    private readonly observer: McpCallObserver,
    private readonly states: RequestStateCodec,
    private readonly tasks: McpTasks,
    private readonly idempotency: IdempotencyKeeper,
  ) {}

  /**
   * A request whose method no handler serves: counted against the caller's request budget like any other (a flood
   * of made-up methods is refused with -32003 like a flood of pings), then -32601. Not observed: a span name or
   * metric label must never carry a method name the client made up.
   */
  async unknownMethod(
    request: JsonRpcRequest,
    peer: McpPeer,
    rid?: string,
    caller?: McpPrincipal,
  ): Promise<DispatchOutcome> {
    const e = await this.admission.message(peer.transport, caller ?? peer.principal, UNKNOWN_METHOD);
    if (e) return failure(request.id, e.code, e.message, e.data, rid);
    return failure(request.id, ErrorCode.MethodNotFound, 'Method not found', undefined, rid);
  }

  async serve(
    request: JsonRpcRequest,
    route: MethodRoute,
    peer: McpPeer,
    sink: MessageSink,
    serialise: ResultSerialiser,
    rid?: string,
    caller?: McpPrincipal,
  ): Promise<DispatchOutcome | undefined> {
    const { id, method } = request;
    const observed = this.observer.begin(request, peer, rid, caller);
    const refuse = (code: number, message: string, data?: unknown) => {
      this.observer.end(observed, errorClassOf(code), code);
      return failure(id, code, message, data, rid);
    };
    // Refused before it runs, in this order: draining, the request budget (the one check that asks a store), the rest.
    const refusal =
      this.refusedBeforeBudget(method) ??
      (await this.admission.message(peer.transport, caller ?? peer.principal, method)) ??
      this.refusedAfterBudget(request, route);
    if (refusal) return refuse(refusal.code, refusal.message, refusal.data);
    const key = McpPeer.inflightKey(id);
    if (peer.inflight.has(key))
      return refuse(ErrorCode.InvalidRequest, 'Invalid Request: id already in use by a running request');
    const call = new InflightCall();
    peer.inflight.set(key, call);
    const handlerContext = this.contextOf(request, peer, sink, call, rid, caller);
    // Shared by the call scope (downstream clients note their names in it) and the call's log entry and audit event.
    if (method === 'tools/call' && callScopeEnabled()) observed.downstreams = handlerContext.downstreams = [];
    try {
      // The request's span is active while it runs: the pipeline, the handler and its own calls nest under it. A span
      // taken over from the HTTP request (not owned) is active already.
      const work =
        observed.ctx && observed.owned
          ? context.with(observed.ctx, () => route.handler(handlerContext))
          : route.handler(handlerContext);
      const result = await call.answer(work);
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
      // -32002 belongs to the 2025 revisions (corporate v2.0 §13.2, docs/compliance.md#s13): a 2026-07-28 client gets
      // -32602 for it.
      if (peer.era.modern && e.code === ErrorCode.ResourceNotFound) e.code = ErrorCode.InvalidParams;
      const outcome = refuse(e.code, e.message, e.data);
      if (error instanceof InsufficientScopeError) outcome.scopeDenied = error.requiredScopes;
      return outcome;
    } finally {
      peer.inflight.delete(key);
    }
  }

  /**
   * A draining replica refuses every method but `ping`. Then comes the request budget (every request counts, whatever
   * its kind: pings and lists too; the method's row in admission/request-kinds.ts), then {@link refusedAfterBudget}.
   */
  private refusedBeforeBudget(method: string): JsonRpcRefusal | undefined {
    if (this.sessions.draining && passes(method, 'draining'))
      return {
        code: ErrorCode.UpstreamUnavailable,
        message: 'Unavailable: the server is shutting down; retry on another instance',
        data: { reason: 'shutting_down', retryAfter: 1 },
      };
    return undefined;
  }

  /** A bad progress token; a method of a capability the registry does not have. */
  private refusedAfterBudget(request: JsonRpcRequest, route: MethodRoute): JsonRpcRefusal | undefined {
    const tokenProblem = progressTokenProblem(request.params);
    if (tokenProblem)
      return {
        code: ErrorCode.InvalidParams,
        message: `Invalid params: _meta.progressToken must be a string of at most ${MAX_TOKEN_CHARS} characters or a number`,
        data: { reason: tokenProblem, field: '_meta.progressToken', max: MAX_TOKEN_CHARS },
      };
    // A method of a capability the registry does not have (yet: entries may be added at run time).
    if (route.capability && !serves(this.registry, route.capability))
      return { code: ErrorCode.MethodNotFound, message: 'Method not found' };
    return undefined;
  }

  /** What the handler and the invocation stage get of this request. */
  private contextOf(
    request: JsonRpcRequest,
    peer: McpPeer,
    sink: MessageSink,
    call: InflightCall,
    rid: string | undefined,
    caller: McpPrincipal | undefined,
  ): HandlerContext {
    return {
      requestId: rid,
      // The caller of this request (its token), not whoever last used the session.
      principal: caller,
      abort: (reason: unknown) => call.abort(reason),
      message: request,
      params: request.params ?? {},
      peer,
      sink,
      signal: call.controller.signal,
      registry: this.registry,
      options: this.options,
      admission: this.admission,
      states: this.states,
      tasks: this.tasks,
      idempotency: this.idempotency,
    };
  }
}
