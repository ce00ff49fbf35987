import { Injectable, Optional } from '@nestjs/common';
import { McpAuthFailure, McpAuthFailureListener } from '../auth/auth-failure.listener';
import { clientAddress, pathOf } from '../http-adapter/node-http';
import { McpMetrics } from './mcp-metrics.service';
import { McpRefusalLog } from './refusal-log';

/**
 * Counts and logs every refused credential for the auth filter (auth/ only knows the listener interface).
 * @internal
 */
@Injectable()
export class AuthFailureRecorder implements McpAuthFailureListener {
  constructor(
    private readonly metrics: McpMetrics,
    @Optional() private readonly refusals?: McpRefusalLog,
  ) {}

  authFailed({ error, kind, req, requestId }: McpAuthFailure): void {
    this.metrics.authFailures.inc({ reason: kind });
    // The reason, never the token: passport and jose messages name the failed check, not the value. Aggregated per
    // source address and reason: a flood of bad tokens writes a few lines, while the metric counts each one.
    this.refusals?.note(`auth:${kind}`, clientAddress(req), {
      detail: error.reason.slice(0, 200),
      status: error.status,
      requestId,
      path: pathOf(req.url),
    });
  }
}
