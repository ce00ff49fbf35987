import type { Attributes, Link, SpanContext } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { ProtoWriter } from './protobuf-writer';

/**
 * OTLP's `ExportTraceServiceRequest` in protobuf, written in one pass into one buffer. The exporter of
 * `@opentelemetry/exporter-trace-otlp-proto` measures every message first and then writes each string character by
 * character, twice per span: at one span per call that was the largest single cost a traced call paid (about 5 us of
 * a 65 us production call). Here strings and ids go through Buffer's native UTF-8 and hex writers, and a message's
 * length is written in front of it once its end is known. The spec beside this file checks the output is byte for
 * byte what the library's serializer writes, for spans with every kind of field.
 *
 * Field numbers and wire types are those of opentelemetry-proto's trace/v1 and common/v1 messages (tag = field << 3 |
 * wire type: 0 varint, 1 fixed64, 2 length-delimited, 5 fixed32).
 */
export function encodeTraceExportRequest(spans: readonly ReadableSpan[]): Uint8Array {
  const w = new ProtoWriter(spans.length * SPAN_BYTES_GUESS + 1024);
  for (const [resource, scopes] of groupByResource(spans)) {
    w.tag(0x0a); // ExportTraceServiceRequest.resource_spans = 1
    const resourceSpans = w.open(3);
    w.tag(0x0a); // ResourceSpans.resource = 1
    const res = w.open(2);
    w.attributes(0x0a, resource.attributes); // Resource.attributes = 1
    w.varintField(0x10, 0); // Resource.dropped_attributes_count = 2
    w.close(res, 2);
    for (const [scope, scoped] of scopes) {
      w.tag(0x12); // ResourceSpans.scope_spans = 2
      const scopeSpans = w.open(3);
      writeScope(w, scope);
      for (const span of scoped) writeSpan(w, span);
      if (scope.schemaUrl) w.string(0x1a, scope.schemaUrl); // ScopeSpans.schema_url = 3
      w.close(scopeSpans, 3);
    }
    if (resource.schemaUrl) w.string(0x1a, resource.schemaUrl); // ResourceSpans.schema_url = 3
    w.close(resourceSpans, 3);
  }
  return w.finish();
}

/** What one span of the MCP calls takes (about 650 bytes with its attributes): the first size tried for a batch. */
const SPAN_BYTES_GUESS = 768;

type Scope = ReadableSpan['instrumentationScope'];
type Resource = ReadableSpan['resource'];

/** Spans by resource, then by instrumentation scope (both compared by identity, as the SDK shares them). */
function groupByResource(spans: readonly ReadableSpan[]): Map<Resource, Map<Scope, ReadableSpan[]>> {
  const byResource = new Map<Resource, Map<Scope, ReadableSpan[]>>();
  for (const span of spans) {
    let byScope = byResource.get(span.resource);
    if (!byScope) byResource.set(span.resource, (byScope = new Map()));
    const list = byScope.get(span.instrumentationScope);
    if (list) list.push(span);
    else byScope.set(span.instrumentationScope, [span]);
  }
  return byResource;
}

/** ScopeSpans.scope = 1: InstrumentationScope { name = 1, version = 2, attributes = 3, dropped_attributes = 4 }. */
function writeScope(w: ProtoWriter, scope: Scope & { attributes?: Attributes; droppedAttributesCount?: number }): void {
  w.tag(0x0a);
  const start = w.open(1);
  w.string(0x0a, scope.name);
  if (scope.version) w.string(0x12, scope.version);
  if (scope.attributes) w.attributes(0x1a, scope.attributes);
  if (scope.droppedAttributesCount) w.varintField(0x20, scope.droppedAttributesCount);
  w.close(start, 1);
}

/** The flags of a span or link: the W3C trace flags, and whether the parent (or linked) context is remote. */
const spanFlags = (traceFlags: number, isRemote: boolean | undefined): number =>
  (traceFlags & 0xff) | 0x100 | (isRemote ? 0x200 : 0);

/** trace_id = 1, span_id = 2, trace_state = 3: the first fields of a Span and of a Link alike. */
function writeIds(w: ProtoWriter, ctx: SpanContext): void {
  w.hex(0x0a, ctx.traceId);
  w.hex(0x12, ctx.spanId);
  const traceState = ctx.traceState?.serialize();
  if (traceState) w.string(0x1a, traceState);
}

/** ScopeSpans.spans = 2: one Span (fields 1-16 of trace/v1 Span, in field order). */
function writeSpan(w: ProtoWriter, span: ReadableSpan): void {
  const ctx = span.spanContext();
  w.tag(0x12);
  const start = w.open(2);
  writeIds(w, ctx);
  const parent = span.parentSpanContext;
  if (parent?.spanId) w.hex(0x22, parent.spanId);
  w.string(0x2a, span.name);
  // SpanKind in the API counts from INTERNAL = 0; in OTLP 0 is UNSPECIFIED and INTERNAL is 1.
  if (span.kind != null) w.varintField(0x30, span.kind + 1);
  w.time(0x39, span.startTime);
  w.time(0x41, span.endTime);
  w.attributes(0x4a, span.attributes);
  w.varintField(0x50, span.droppedAttributesCount);
  for (const event of span.events) {
    w.tag(0x5a); // Span.events = 11: Event { time = 1, name = 2, attributes = 3, dropped_attributes_count = 4 }
    const e = w.open(1);
    w.time(0x09, event.time);
    w.string(0x12, event.name);
    if (event.attributes) w.attributes(0x1a, event.attributes);
    w.varintField(0x20, event.droppedAttributesCount ?? 0);
    w.close(e, 1);
  }
  w.varintField(0x60, span.droppedEventsCount);
  for (const link of span.links) writeLink(w, link);
  w.varintField(0x70, span.droppedLinksCount);
  w.tag(0x7a); // Span.status = 15: Status { message = 2, code = 3 }
  const status = w.open(1);
  if (span.status.message) w.string(0x12, span.status.message);
  w.varintField(0x18, span.status.code);
  w.close(status, 1);
  w.fixed32(0x85, 0x01, spanFlags(ctx.traceFlags, parent?.isRemote)); // Span.flags = 16 (a two-byte tag)
  w.close(start, 2);
}

/** Span.links = 13: Link { trace_id = 1, span_id = 2, trace_state = 3, attributes = 4, dropped = 5, flags = 6 }. */
function writeLink(w: ProtoWriter, link: Link & { droppedAttributesCount?: number }): void {
  const ctx: SpanContext = link.context;
  w.tag(0x6a);
  const start = w.open(1);
  writeIds(w, ctx);
  if (link.attributes) w.attributes(0x22, link.attributes);
  w.varintField(0x28, link.droppedAttributesCount ?? 0);
  w.fixed32(0x35, undefined, spanFlags(ctx.traceFlags, ctx.isRemote));
  w.close(start, 1);
}
