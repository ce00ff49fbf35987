import {
  Context,
  ProxyTracerProvider,
  ROOT_CONTEXT,
  Span,
  SpanKind,
  SpanStatusCode,
  Tracer,
  context,
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
  if (meta && typeof meta === 'object' && typeof (meta as Record<string, unknown>).traceparent === 'string') {
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
 * Starts an MCP server span (`{method} {target}`, kind SERVER) under {@link parentOf}, on the tracer its caller
 * took once at boot. `attributes` is called only for a recording span; undefined values are left out.
 * @internal
 */
export function startMcpSpan(
  tracer: Tracer,
  method: string,
  target: string | undefined,
  meta: unknown,
  attributes: () => Record<string, string | number | undefined>,
): { span: Span; ctx: Context } {
  const { parent, links } = parentOf(meta);
  const span = tracer.startSpan(target ? `${method} ${target}` : method, { kind: SpanKind.SERVER, links }, parent);
  if (span.isRecording()) {
    const all = attributes();
    for (const key in all) {
      const value = all[key];
      if (value !== undefined) span.setAttribute(key, value);
    }
  }
  return { span, ctx: trace.setSpan(parent, span) };
}

/** Records the outcome on a span and ends it: `error.type` and an ERROR status for failures. @internal */
export function endSpan(span: Span, status: string, rpcCode?: number): void {
  if (!span.isRecording()) return;
  if (status !== 'ok') {
    span.setAttribute(MCP_ATTR.errorType, status);
    if (rpcCode !== undefined) span.setAttribute(MCP_ATTR.rpcStatus, String(rpcCode));
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}
