import { getStringFromEnv, getStringListFromEnv } from '@opentelemetry/core';
import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import { ProtobufTraceSerializer, TraceExporterMetricsHelper } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import { encodeTraceExportRequest } from './otlp-span.serializer';

/**
 * The OTLP/HTTP protobuf span exporter of `@opentelemetry/exporter-trace-otlp-proto`, built from the same parts
 * (`@opentelemetry/otlp-exporter-base`: the `OTEL_EXPORTER_OTLP_*` settings, HTTP transport, retries, timeouts, the
 * bound on concurrent exports, its own metrics), with our one-pass encoder in place of the library's serializer.
 * @internal
 */
export class OtlpProtobufSpanExporter extends OTLPExporterBase<ReadableSpan[]> implements SpanExporter {
  constructor() {
    super(
      createOtlpHttpExportDelegate(
        convertLegacyHttpOptions({}, 'TRACES', 'v1/traces', { 'Content-Type': 'application/x-protobuf' }),
        {
          serializeRequest: encodeTraceExportRequest,
          deserializeResponse: ProtobufTraceSerializer.deserializeResponse,
        },
        'otlp_http_span_exporter',
        TraceExporterMetricsHelper,
        undefined,
      ),
    );
  }
}

/**
 * Whether the environment asks for what the SDK would build as its default: one OTLP exporter over HTTP/protobuf
 * (`OTEL_TRACES_EXPORTER` unset or `otlp`; the traces protocol, or else the general one, unset or `http/protobuf`).
 * Any other choice (console, zipkin, gRPC, JSON, several exporters, none) is left to the SDK as configured.
 * @internal
 */
export function wantsOtlpProtobuf(): boolean {
  const exporters = [...new Set(getStringListFromEnv('OTEL_TRACES_EXPORTER') ?? [])].filter((e) => e !== 'null');
  if (exporters.length > 1 || (exporters.length === 1 && exporters[0] !== 'otlp')) return false;
  const protocol =
    getStringFromEnv('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ?? getStringFromEnv('OTEL_EXPORTER_OTLP_PROTOCOL');
  return protocol === undefined || protocol === 'http/protobuf';
}
