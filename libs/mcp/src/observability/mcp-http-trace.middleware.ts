import { Injectable, NestMiddleware } from '@nestjs/common';
import { Span, SpanKind, SpanStatusCode, context, defaultTextMapGetter, trace } from '@opentelemetry/api';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_URL_PATH,
  ATTR_CLIENT_ADDRESS,
} from '@opentelemetry/semantic-conventions';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MCP_ATTR, RequestSpanOffer, incomingTraceContext, mcpTracer, offerKey, tracingActive } from './mcp-tracer';
import { requestIdFor } from '../http-adapter/request-id';
import { pathOf, requestTarget } from '../http-adapter/node-http';

const SPAN = Symbol('mcpHttpSpan');
const OFFER = Symbol('mcpHttpSpanOffer');
type TracedResponse = ServerResponse & { [SPAN]?: Span; [OFFER]?: RequestSpanOffer };

/**
 * Called by the transport once it knows the body is one JSON-RPC message (not a batch): the MCP request it carries
 * may then take this request's span as its own (renamed and attributed per the MCP conventions) instead of starting
 * a child, so a call costs one span, not two. Without a recording span, nothing happens.
 * @internal
 */
export function offerRequestSpan(res: ServerResponse): void {
  const offer = (res as TracedResponse)[OFFER];
  if (offer) offer.open = true;
}

/** Ends the request's span when the response closes: one shared listener, no closure per request. */
function endHttpSpan(this: TracedResponse): void {
  const span = this[SPAN];
  if (!span) return;
  this[SPAN] = undefined;
  span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, this.statusCode);
  if (this.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/**
 * One SERVER span per HTTP request to the MCP endpoints, continuing the caller's W3C
 * `traceparent`/`tracestate` headers, active for everything the request does. A POST of one MCP request gives the
 * span to that request (see {@link offerRequestSpan}); a batch's requests are its children. No headers, query string
 * or body are recorded.
 * @internal
 */
@Injectable()
export class McpHttpTraceMiddleware implements NestMiddleware {
  /** Decided once at boot: without an OpenTelemetry SDK there is no span to make, nor context to carry. */
  private readonly active = tracingActive();
  private readonly tracer = mcpTracer();

  use(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    if (!this.active) return next();
    const parent = incomingTraceContext.extract(context.active(), req.headers, defaultTextMapGetter);
    const route = pathOf(requestTarget(req));
    const span = this.tracer.startSpan(`${req.method} ${route}`, { kind: SpanKind.SERVER }, parent);
    // Attributes and listeners only for a recording span: without an SDK (or unsampled) this stays near free.
    if (span.isRecording()) {
      span.setAttributes({
        [ATTR_HTTP_REQUEST_METHOD]: req.method,
        [ATTR_URL_PATH]: route,
        [ATTR_CLIENT_ADDRESS]: req.socket.remoteAddress ?? '',
        [MCP_ATTR.requestId]: requestIdFor(req, res),
      });
      const offer: RequestSpanOffer = { span, open: false };
      (res as TracedResponse)[SPAN] = span;
      (res as TracedResponse)[OFFER] = offer;
      // 'close' ends every response, complete (after 'finish') or cut short: one listener covers both.
      res.on('close', endHttpSpan);
      return context.with(trace.setSpan(parent, span).setValue(offerKey, offer), next);
    }
    context.with(trace.setSpan(parent, span), next);
  }
}
