import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace } from '@opentelemetry/api';
import { TraceState } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemorySpanExporter, ReadableSpan, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { encodeTraceExportRequest } from './otlp-span.serializer';

/** Real SDK spans, from a provider of their own (not the global one). */
function recorder(resource = resourceFromAttributes({ 'service.name': 'spec', 'process.pid': 4242 })) {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  return { provider, spans: () => exporter.getFinishedSpans() as ReadableSpan[] };
}

/** What the OpenTelemetry library's own protobuf serializer writes for the same spans: the reference. */
const reference = (spans: ReadableSpan[]) => Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!);
const ours = (spans: ReadableSpan[]) => Buffer.from(encodeTraceExportRequest(spans));

describe('encodeTraceExportRequest', () => {
  it('writes an MCP call span byte for byte as the OpenTelemetry serializer does', () => {
    const { provider, spans } = recorder();
    const span = provider.getTracer('nest-mcp-enterprise').startSpan('POST /mcp', { kind: SpanKind.SERVER });
    span.setAttributes({
      'http.request.method': 'POST',
      'url.path': '/mcp',
      'mcp.method.name': 'tools/call',
      'mcp.session.id': 'JUnxKdhzDd9Zwboz_8RM4p22joXj71TvmlIhnNMCURs',
      'jsonrpc.request.id': '7',
      'gen_ai.tool.name': 'echo',
      'http.response.status_code': 200,
    });
    span.updateName('tools/call echo');
    span.end();
    const batch = spans();
    expect(ours(batch).equals(reference(batch))).toBe(true);
    expect(ours(batch).includes(Buffer.from('tools/call echo'))).toBe(true);
  });

  it('writes every field the same: parents, remote parents, trace state, events, links, error status, every value type', () => {
    const { provider, spans } = recorder(
      resourceFromAttributes({ 'service.name': 'spec', 'process.command_args': ['node', 'main.js'] }),
    );
    const tracer = provider.getTracer('scope-a', '1.2.3', { schemaUrl: 'https://opentelemetry.io/schemas/1.30.0' });
    const remote = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
      traceState: new TraceState('vendor=abc,other=x'),
    });
    const parent = tracer.startSpan('parent', { kind: SpanKind.CLIENT }, remote);
    const child = tracer.startSpan('child é 😀', { kind: SpanKind.INTERNAL }, trace.setSpan(ROOT_CONTEXT, parent));
    child.setAttributes({
      int: 42,
      negative: -7,
      big: 2 ** 40,
      double: 3.25,
      notANumber: NaN,
      flag: true,
      off: false,
      unicode: 'grüße, 世界, 😀',
      loneSurrogate: 'a\ud800b',
      long: 'x'.repeat(300),
      veryLong: 'é'.repeat(9_000),
      exactly42: 'y'.repeat(42),
      exactly43: 'z'.repeat(43),
      empty: '',
      strings: ['a', 'b'],
      numbers: [1, 2.5, -3],
      withHoles: ['a', null, undefined, 'b'] as string[],
      emptyList: [],
    });
    child.addEvent('started', { step: 1, note: 'ok' });
    child.addEvent('bare');
    child.addLink({
      context: { ...parent.spanContext(), traceState: new TraceState('k=v') },
      attributes: { why: 'follows' },
    });
    child.addLink({
      context: { traceId: 'ABCDEF0123456789ABCDEF0123456789', spanId: '0123456789ABCDEF', traceFlags: 0 },
    });
    child.setStatus({ code: SpanStatusCode.ERROR, message: 'it failed: ünïcode' });
    child.end();
    parent.setStatus({ code: SpanStatusCode.OK });
    parent.end();
    provider.getTracer('scope-b').startSpan('other scope', { kind: SpanKind.PRODUCER }).end();
    const batch = spans();
    expect(batch).toHaveLength(3);
    expect(ours(batch).equals(reference(batch))).toBe(true);
  });

  it('groups several resources and scopes in one request the same way', () => {
    const a = recorder(resourceFromAttributes({ 'service.name': 'a' }));
    const b = recorder(resourceFromAttributes({ 'service.name': 'b' }));
    for (let i = 0; i < 3; i++) {
      a.provider.getTracer('one').startSpan(`a-one-${i}`).end();
      b.provider.getTracer('two').startSpan(`b-two-${i}`).end();
      a.provider.getTracer('three').startSpan(`a-three-${i}`).end();
    }
    const batch = [...a.spans(), ...b.spans()].sort((x, y) => x.name.localeCompare(y.name));
    expect(ours(batch).equals(reference(batch))).toBe(true);
  });

  it('writes a batch of several megabytes (lengths of three and four bytes) the same', () => {
    const { provider, spans } = recorder();
    const tracer = provider.getTracer('big');
    for (let i = 0; i < 1_500; i++) tracer.startSpan(`span ${i}`, { attributes: { payload: 'p'.repeat(2_000) } }).end();
    const batch = spans();
    const bytes = ours(batch);
    expect(bytes.length).toBeGreaterThan(2_097_152);
    expect(bytes.equals(reference(batch))).toBe(true);
  });

  it('writes an empty request for no spans, as the library does', () => {
    expect(ours([]).equals(reference([]))).toBe(true);
  });
});
