import { SpanKind, SpanStatusCode, context, defaultTextMapSetter, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { mcpTracer } from '../observability/mcp-tracer';

/*
 * Why W3C Trace Context only, not the globally configured propagators: baggage a caller sent must not travel on to
 * internal services (the incoming side drops it too, observability/mcp-tracer.ts).
 */
const w3c = new W3CTraceContextPropagator();

/** One attempt's client span, and the headers that carry it downstream. @internal */
export interface ClientSpan {
  /** `traceparent` (and `tracestate`) of the span, to add to the request; empty without a trace. */
  headers: Record<string, string>;
  end(status: number | undefined, error?: string): void;
}

/**
 * A CLIENT span for one HTTP attempt, under the active span (the call's, when tracing is on), named the
 * OpenTelemetry HTTP way (`GET`), with the downstream's name. A no-op span without an OpenTelemetry SDK; the trace
 * context of the call is still propagated when there is one.
 * @internal
 */
export function startClientSpan(downstream: string, method: string, url: URL, attempt: number): ClientSpan {
  const span = mcpTracer().startSpan(method, {
    kind: SpanKind.CLIENT,
    attributes: {
      'http.request.method': method,
      'server.address': url.hostname,
      'server.port': Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
      'url.path': url.pathname,
      'mcp.downstream.name': downstream,
      ...(attempt > 0 ? { 'http.request.resend_count': attempt } : {}),
    },
  });
  const headers: Record<string, string> = {};
  w3c.inject(trace.setSpan(context.active(), span), headers, defaultTextMapSetter);
  return {
    headers,
    end(status, error) {
      if (status !== undefined) span.setAttribute('http.response.status_code', status);
      if (error !== undefined || (status !== undefined && status >= 500)) {
        span.setAttribute('error.type', error ?? String(status));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    },
  };
}
