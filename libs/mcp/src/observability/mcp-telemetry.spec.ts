import { context, propagation, trace } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { DEFAULT_EXPORT_BATCH, startMcpTelemetry, stopMcpTelemetry } from './mcp-telemetry';
import { OtlpProtobufSpanExporter } from './otlp-span.exporter';

describe('startMcpTelemetry', () => {
  const saved = { ...process.env };
  afterEach(() => {
    trace.disable();
    context.disable();
    propagation.disable();
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  });

  const start = () =>
    startMcpTelemetry({
      serviceName: 'spec',
      spanProcessors: [new SimpleSpanProcessor({ exporter: new InMemorySpanExporter() })],
    });

  it('exports spans in batches of 128 and leaves metrics and logs to their own channels, unless OTEL_* say otherwise', async () => {
    for (const key of ['OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 'OTEL_METRICS_EXPORTER', 'OTEL_LOGS_EXPORTER'])
      delete process.env[key];
    const sdk = start();
    expect(process.env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE).toBe(String(DEFAULT_EXPORT_BATCH));
    expect(process.env.OTEL_METRICS_EXPORTER).toBe('none');
    expect(process.env.OTEL_LOGS_EXPORTER).toBe('none');
    await stopMcpTelemetry(sdk);
  });

  it('keeps what the operator set', async () => {
    Object.assign(process.env, { OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '512', OTEL_METRICS_EXPORTER: 'otlp' });
    const sdk = start();
    expect(process.env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE).toBe('512');
    expect(process.env.OTEL_METRICS_EXPORTER).toBe('otlp');
    await stopMcpTelemetry(sdk);
  });

  /** The names of the spans our OTLP/HTTP protobuf exporter is given (nothing is sent). */
  const ourExports = () => {
    const names: string[] = [];
    jest.spyOn(OtlpProtobufSpanExporter.prototype, 'export').mockImplementation((spans, done) => {
      names.push(...spans.map((span) => span.name));
      done({ code: ExportResultCode.SUCCESS });
    });
    return names;
  };
  const traceOneSpan = async () => {
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = 'http://127.0.0.1:9'; // nothing listens: the SDK's own exporters fail
    const sdk = startMcpTelemetry({ serviceName: 'spec' });
    trace.getTracer('spec').startSpan('tools/call lookup').end();
    await stopMcpTelemetry(sdk);
    jest.restoreAllMocks();
  };

  it('exports through our OTLP/HTTP protobuf exporter (our encoder) when OTEL_* ask for the default one', async () => {
    for (const key of ['OTEL_TRACES_EXPORTER', 'OTEL_EXPORTER_OTLP_PROTOCOL', 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'])
      delete process.env[key];
    const names = ourExports();
    await traceOneSpan();
    expect(names).toEqual(['tools/call lookup']);
  });

  it('leaves any other exporter or protocol to the SDK', async () => {
    process.env.OTEL_EXPORTER_OTLP_PROTOCOL = 'http/json';
    const names = ourExports();
    await traceOneSpan();
    expect(names).toEqual([]);
  });

  it('starts nothing with OTEL_SDK_DISABLED=true', () => {
    process.env.OTEL_SDK_DISABLED = 'true';
    expect(start()).toBeUndefined();
  });
});
