import {
  Context,
  ProxyTracerProvider,
  ROOT_CONTEXT,
  Span,
  SpanKind,
  SpanStatusCode,
  Tracer,
  context,
  createContextKey,
  trace,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';

/**
 * Attribute names of the OpenTelemetry MCP and GenAI semantic conventions (still "development"
 * there, so spelled out here rather than imported from the incubating entry point).
 * @internal
 */
export const MCP_ATTR = {
  method: 'mcp.method.name',
  sessionId: 'mcp.session.id',
  protocolVersion: 'mcp.protocol.version',
  resourceUri: 'mcp.resource.uri',
  jsonRpcId: 'jsonrpc.request.id',
  rpcStatus: 'rpc.response.status_code',
  operation: 'gen_ai.operation.name',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  promptName: 'gen_ai.prompt.name',
  errorType: 'error.type',
  networkTransport: 'network.transport',
  networkProtocol: 'network.protocol.name',
  /** Not a convention: the `X-Request-Id` correlation id (HTTP) or the per-message id (stdio). */
  requestId: 'request.id',
} as const;

/**
 * Incoming trace context is read with W3C Trace Context only (`traceparent`, `tracestate`), not with
 * the globally configured propagators: `baggage` from a client is not taken over, so a caller cannot
 * plant entries that instrumented clients would forward to internal services.
 * @internal
 */
export const incomingTraceContext = new W3CTraceContextPropagator();

/**
 * Whether an OpenTelemetry SDK registered a tracer provider (as `startMcpTelemetry` does, before the
 * app boots). Without one every span is a no-op, and the per-call tracing interceptor is not
 * attached at all.
 * @internal
 */
export function tracingActive(): boolean {
  const provider = trace.getTracerProvider();
  const delegate = provider instanceof ProxyTracerProvider ? provider.getDelegate() : provider;
  return delegate.constructor.name !== 'NoopTracerProvider';
}

/**
 * The tracer of the MCP platform; a no-op until an OpenTelemetry SDK is started. Components take it once, at
 * boot: looking it up per span goes through the provider's tracer cache on every call.
 * @internal
 */
export const mcpTracer = () => trace.getTracer('nest-mcp-enterprise');

/**
 * The parent of an MCP request's span: the W3C trace context in `params._meta` when the client
 * sent one (SEP-414: MCP's own propagation, closer to the caller than the HTTP hop), else the
 * active context (the HTTP request's span). With `_meta` winning, the HTTP span is kept as a link.
 * @internal
 */
export function parentOf(meta: unknown): { parent: Context; links: { context: ReturnType<Span['spanContext']> }[] } {
  const active = context.active();
  if (hasTraceparent(meta)) {
    const extracted = incomingTraceContext.extract(ROOT_CONTEXT, meta as Record<string, unknown>, metaGetter);
    if (trace.getSpanContext(extracted)) {
      const http = trace.getSpan(active)?.spanContext();
      return { parent: extracted, links: http ? [{ context: http }] : [] };
    }
  }
  return { parent: active, links: [] };
}

const metaGetter = {
  keys: (carrier: Record<string, unknown>) => Object.keys(carrier),
  get: (carrier: Record<string, unknown>, key: string) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

/**
 * An HTTP request's span, offered to the one MCP request its body carries (claimed at most once).
 * @internal
 */
export interface RequestSpanOffer {
  span: Span;
  open: boolean;
}

/** Where the HTTP trace middleware puts its {@link RequestSpanOffer} in the request's context. @internal */
export const offerKey = createContextKey('nest-mcp request span offer');

/** An MCP request's span; `owned` is false when it is the HTTP request's span, which the HTTP layer ends. @internal */
export interface McpSpan {
  span: Span;
  ctx: Context;
  owned: boolean;
}

/**
 * Starts an MCP server span (`{method} {target}`, kind SERVER) under {@link parentOf}, on the tracer its caller
 * took once at boot. When the HTTP request offered its span (one MCP request in the body, no `_meta` trace context
 * of its own), that span is renamed and attributed instead: one span per call. `attributes` is called only for a
 * recording span; undefined values are left out.
 * @internal
 */
export function startMcpSpan(
  tracer: Tracer,
  method: string,
  target: string | undefined,
  meta: unknown,
  attributes: () => Record<string, string | number | undefined>,
): McpSpan {
  const name = target ? `${method} ${target}` : method;
  const active = context.active();
  const offer = active.getValue(offerKey) as RequestSpanOffer | undefined;
  let span: Span;
  let ctx: Context;
  let owned = true;
  if (offer?.open && !hasTraceparent(meta)) {
    offer.open = false;
    span = offer.span.updateName(name);
    ctx = active;
    owned = false;
  } else {
    const { parent, links } = parentOf(meta);
    span = tracer.startSpan(name, { kind: SpanKind.SERVER, links }, parent);
    ctx = trace.setSpan(parent, span);
  }
  if (span.isRecording()) {
    const all = attributes();
    for (const key in all) {
      const value = all[key];
      if (value !== undefined) span.setAttribute(key, value);
    }
  }
  return { span, ctx, owned };
}

const hasTraceparent = (meta: unknown): boolean =>
  !!meta && typeof meta === 'object' && typeof (meta as Record<string, unknown>).traceparent === 'string';

/**
 * Records the outcome on a span (`error.type` and an ERROR status for failures) and ends it when it is the MCP
 * layer's own (an adopted HTTP span ends with its response).
 * @internal
 */
export function endSpan({ span, owned }: Pick<McpSpan, 'span' | 'owned'>, status: string, rpcCode?: number): void {
  if (!span.isRecording()) return;
  if (status !== 'ok') {
    span.setAttribute(MCP_ATTR.errorType, status);
    if (rpcCode !== undefined) span.setAttribute(MCP_ATTR.rpcStatus, String(rpcCode));
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  if (owned) span.end();
}
