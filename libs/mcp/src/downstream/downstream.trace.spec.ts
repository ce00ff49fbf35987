import { SpanKind, context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { startClientSpan } from './downstream.trace';

describe('startClientSpan', () => {
  afterEach(() => {
    trace.disable();
    context.disable();
    propagation.disable();
  });

  it('a CLIENT span under the active span, its W3C trace context in the headers', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
    trace.setGlobalTracerProvider(provider);
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    const parent = trace.getTracer('spec').startSpan('tools/call get_issue');
    const client = context.with(trace.setSpan(context.active(), parent), () =>
      startClientSpan('jira', 'GET', new URL('https://jira.example.com/rest/issue/HD-7?q=secret'), 1),
    );
    client.end(503);
    parent.end();
    const span = exporter.getFinishedSpans().find((s) => s.name === 'GET')!;
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(span.attributes).toMatchObject({
      'http.request.method': 'GET',
      'server.address': 'jira.example.com',
      'server.port': 443,
      'url.path': '/rest/issue/HD-7',
      'mcp.downstream.name': 'jira',
      'http.request.resend_count': 1,
      'http.response.status_code': 503,
      'error.type': '503',
    });
    expect(client.headers.traceparent).toBe(`00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`);
    await provider.shutdown();
  });

  it('no trace context to send without a trace', () => {
    const client = startClientSpan('jira', 'GET', new URL('https://jira.example.com/'), 0);
    client.end(200);
    expect(client.headers).toEqual({});
  });
});
