import { Injectable, NestMiddleware } from '@nestjs/common';
import { SpanKind, SpanStatusCode, context, defaultTextMapGetter, trace } from '@opentelemetry/api';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_URL_PATH,
  ATTR_CLIENT_ADDRESS,
  ATTR_NETWORK_PROTOCOL_NAME,
} from '@opentelemetry/semantic-conventions';
import type { NextFunction, Request, Response } from 'express';
import { MCP_ATTR, incomingTraceContext, mcpTracer, tracingActive } from './mcp-tracer';
import { requestIdFor } from './request-id';

/**
 * One SERVER span per HTTP request to the MCP endpoints, continuing the caller's W3C
 * `traceparent`/`tracestate` headers, active for everything the request does, so each MCP
 * request's span is its child. No headers, query string or body are recorded.
 * @internal
 */
@Injectable()
export class McpHttpTraceMiddleware implements NestMiddleware {
  /** Decided once at boot: without an OpenTelemetry SDK there is no span to make, nor context to carry. */
  private readonly active = tracingActive();

  use(req: Request, res: Response, next: NextFunction): void {
    if (!this.active) return next();
    const parent = incomingTraceContext.extract(context.active(), req.headers, defaultTextMapGetter);
    const route = req.baseUrl || req.path;
    const span = mcpTracer().startSpan(`${req.method} ${route}`, { kind: SpanKind.SERVER }, parent);
    // Attributes and listeners only for a recording span: without an SDK (or unsampled) this stays near free.
    if (span.isRecording()) {
      span.setAttributes({
        [ATTR_HTTP_REQUEST_METHOD]: req.method,
        [ATTR_URL_PATH]: route,
        [ATTR_NETWORK_PROTOCOL_NAME]: 'http',
        [ATTR_CLIENT_ADDRESS]: req.socket.remoteAddress ?? '',
        [MCP_ATTR.requestId]: requestIdFor(req, res),
      });
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, res.statusCode);
        if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      };
      res.once('finish', end);
      res.once('close', end);
    }
    context.with(trace.setSpan(parent, span), next);
  }
}
