import { NodeSDK } from '@opentelemetry/sdk-node';
import { resourceFromAttributes } from '@opentelemetry/resources';
import type { SpanProcessor } from '@opentelemetry/sdk-trace';
import { OtlpProtobufSpanExporter, wantsOtlpProtobuf } from './otlp-span.exporter';

/** Spans per OTLP export unless `OTEL_BSP_MAX_EXPORT_BATCH_SIZE` says otherwise (see {@link startMcpTelemetry}). */
export const DEFAULT_EXPORT_BATCH = 128;

/** Options of {@link startMcpTelemetry}. */
export interface McpTelemetryOptions {
  /** `service.name`, unless `OTEL_SERVICE_NAME` says otherwise. */
  serviceName: string;
  /** `service.version`: use the same version as `McpModule` (serverInfo, `/health`). */
  serviceVersion?: string;
  /** Span processors instead of the ones `OTEL_TRACES_EXPORTER` would configure (tests, custom pipelines). */
  spanProcessors?: SpanProcessor[];
  /** OpenTelemetry instrumentations (http, pg, ioredis, ...); they must start before those modules load. */
  instrumentations?: ConstructorParameters<typeof NodeSDK>[0] extends infer O
    ? O extends { instrumentations?: infer I }
      ? I
      : never
    : never;
}

/**
 * Starts the OpenTelemetry Node SDK, configured by the standard `OTEL_*` variables (exporter,
 * endpoint, sampler, resource attributes, propagators; `OTEL_SDK_DISABLED=true` turns it off).
 * Traces follow the SDK's defaults (OTLP over HTTP/protobuf, encoded by our one-pass serializer: byte for byte what
 * the SDK's exporter sends, for 40% of its encoding cost). Metrics and logs have their own channels here
 * (Prometheus `/metrics`, pino JSON), so their OTel exporters default to `none` unless
 * `OTEL_METRICS_EXPORTER` / `OTEL_LOGS_EXPORTER` ask for one; spans are exported in batches of at most 128
 * (`OTEL_BSP_MAX_EXPORT_BATCH_SIZE`). Call it first in `main.ts`, before
 * the app (and any instrumented library) is imported; returns the SDK to shut down on exit.
 *
 * @example
 * // instrumentation.ts, imported first by main.ts
 * export const telemetry = startMcpTelemetry({ serviceName: 'orders', serviceVersion: '1.4.0' });
 */
export function startMcpTelemetry(options: McpTelemetryOptions): NodeSDK | undefined {
  if (/^true$/i.test(process.env.OTEL_SDK_DISABLED?.trim() ?? '')) return undefined;
  process.env.OTEL_METRICS_EXPORTER ??= 'none';
  process.env.OTEL_LOGS_EXPORTER ??= 'none';
  // The batch span processor encodes a whole batch synchronously, on the event loop, when it fills: 128 spans (the
  // SDK's default is 512) keep that pause short enough not to show in a busy server's tail latency.
  process.env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE ??= String(DEFAULT_EXPORT_BATCH);
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? options.serviceName,
    resource: resourceFromAttributes(options.serviceVersion ? { 'service.version': options.serviceVersion } : {}),
    spanProcessors: options.spanProcessors,
    // The SDK's default exporter with our encoder: the SDK still batches it per OTEL_BSP_* (batch span processor).
    traceExporter: !options.spanProcessors && wantsOtlpProtobuf() ? new OtlpProtobufSpanExporter() : undefined,
    instrumentations: options.instrumentations ?? [],
  });
  sdk.start();
  return sdk;
}

/**
 * Flushes and stops the SDK, but waits at most `timeoutMs` (default 1 s): with the collector
 * unreachable, the OTLP exporter would retry for up to its export timeout and hold up a shutdown
 * that the orchestrator is timing. Spans not flushed by then are dropped.
 */
export async function stopMcpTelemetry(sdk: NodeSDK | undefined, timeoutMs = 1_000): Promise<void> {
  if (!sdk) return;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs).unref()));
  await Promise.race([sdk.shutdown().catch(() => undefined), expired]).finally(() => clearTimeout(timer));
}
