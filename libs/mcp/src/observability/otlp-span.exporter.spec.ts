import { ExportResult, ExportResultCode } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { InMemorySpanExporter, ReadableSpan, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { OtlpProtobufSpanExporter, wantsOtlpProtobuf } from './otlp-span.exporter';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A collector's stand-in on loopback: keeps each request and answers with `status`. */
async function collector(status = 200) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(status, { 'Content-Type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, received, close: () => new Promise<void>((ok) => server.close(() => ok())) };
}

function finishedSpans(): ReadableSpan[] {
  const memory = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: memory })] });
  const span = provider.getTracer('spec').startSpan('tools/call echo', { attributes: { 'gen_ai.tool.name': 'echo' } });
  span.end();
  return memory.getFinishedSpans() as ReadableSpan[];
}

const exportOnce = (exporter: OtlpProtobufSpanExporter, spans: ReadableSpan[]) =>
  new Promise<ExportResult>((done) => exporter.export(spans, done));

describe('OtlpProtobufSpanExporter', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  });

  it('posts the spans as OTLP protobuf to the configured traces endpoint: the bytes the SDK exporter would send', async () => {
    const sink = await collector();
    process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = `${sink.url}/custom/traces`;
    process.env.OTEL_EXPORTER_OTLP_TRACES_HEADERS = 'x-tenant=acme';
    const exporter = new OtlpProtobufSpanExporter();
    const spans = finishedSpans();
    const result = await exportOnce(exporter, spans);
    await exporter.shutdown();
    await sink.close();
    expect(result.code).toBe(ExportResultCode.SUCCESS);
    expect(sink.received).toHaveLength(1);
    const [request] = sink.received;
    expect(request.path).toBe('/custom/traces');
    expect(request.headers['content-type']).toBe('application/x-protobuf');
    expect(request.headers['x-tenant']).toBe('acme');
    expect(request.body.equals(Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!))).toBe(true);
  });

  it('reports a refused export as failed (a 400 is not retried)', async () => {
    const sink = await collector(400);
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = sink.url;
    const exporter = new OtlpProtobufSpanExporter();
    const result = await exportOnce(exporter, finishedSpans());
    await exporter.shutdown();
    await sink.close();
    expect(result.code).toBe(ExportResultCode.FAILED);
    expect(sink.received.map((r) => r.path)).toEqual(['/v1/traces']);
  });
});

describe('wantsOtlpProtobuf', () => {
  const saved = { ...process.env };
  const KEYS = ['OTEL_TRACES_EXPORTER', 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'OTEL_EXPORTER_OTLP_PROTOCOL'];
  afterEach(() => {
    for (const key of KEYS) delete process.env[key];
    Object.assign(process.env, saved);
  });
  const cases: [Record<string, string>, boolean][] = [
    [{}, true],
    [{ OTEL_TRACES_EXPORTER: 'otlp' }, true],
    [{ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' }, true],
    [{ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' }, true],
    [{ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, false],
    [{ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json' }, false],
    [{ OTEL_TRACES_EXPORTER: 'console' }, false],
    [{ OTEL_TRACES_EXPORTER: 'otlp,console' }, false],
    [{ OTEL_TRACES_EXPORTER: 'zipkin' }, false],
    [{ OTEL_TRACES_EXPORTER: 'none' }, false],
  ];
  it.each(cases)('%j -> %s', (env, wanted) => {
    for (const key of KEYS) delete process.env[key];
    Object.assign(process.env, env);
    expect(wantsOtlpProtobuf()).toBe(wanted);
  });
});
