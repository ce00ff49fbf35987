import { IntrinsicException } from '@nestjs/common';
import { ErrorCode } from '../wire/json-rpc';

/**
 * A protocol error the client sees as a JSON-RPC error object. Throw it (or a subclass) from a
 * tool, prompt or resource handler when the request itself is wrong, not when the domain says no.
 *
 * @example throw new McpError(ErrorCode.Conflict, 'Ticket was changed concurrently', { reason: 'conflict' });
 */
export class McpError extends IntrinsicException {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'McpError';
  }
}

/** `-32602 Invalid params`, optionally naming the field and a machine-readable reason. */
export class InvalidParamsError extends McpError {
  constructor(message = 'Invalid params', data?: { field?: string; reason?: string }) {
    super(ErrorCode.InvalidParams, message, data);
  }
}

/** `-32002 Resource not found`. The URI is not echoed back (it is user input). */
export class ResourceNotFoundError extends McpError {
  constructor(message = 'Resource not found') {
    super(ErrorCode.ResourceNotFound, message, { reason: 'not_found' });
  }
}

/**
 * A domain failure the model can act on. From a tool it becomes a result with `isError: true`
 * whose text is the message, so keep the message safe to show and free of secrets.
 *
 * @example throw new ToolExecutionError('Ticket HD-7 is already closed; reopen it first.');
 */
export class ToolExecutionError extends IntrinsicException {
  constructor(message: string) {
    super(message);
    this.name = 'ToolExecutionError';
  }
}

/** The call was cancelled (by the client, a session end or a shutdown); never reported as a fault. */
export class McpCancelledError extends McpError {
  constructor() {
    super(ErrorCode.ServerError, 'Request cancelled');
  }
}

/** `-32000 Server error`: a failure unrelated to the caller's input; always a protocol error (HTTP 500). */
export class ServerError extends McpError {
  constructor(message = 'Server error', data?: Record<string, unknown>) {
    super(ErrorCode.ServerError, message, data);
  }
}

/** `-32003 Rate limited`, with `retryAfter` seconds (HTTP 429 + `Retry-After`). Always a protocol error. */
export class RateLimitedError extends McpError {
  constructor(
    readonly retryAfter: number,
    message = 'Rate limited: retry later',
  ) {
    super(ErrorCode.RateLimited, message, { reason: 'rate_limited', retryAfter });
  }
}

/** `-32004 Timeout` (HTTP 504). Always a protocol error. */
export class TimeoutError extends McpError {
  constructor(message = 'Timeout: the call took too long', data?: Record<string, unknown>) {
    super(ErrorCode.Timeout, message, { reason: 'timeout', ...data });
  }
}

/** `-32005 Payload too large` (HTTP 413). */
export class PayloadTooLargeError extends McpError {
  constructor(message = 'Payload too large') {
    super(ErrorCode.PayloadTooLarge, message, { reason: 'too_large' });
  }
}

/** `-32006 Upstream unavailable`: a dependency is down. From a tool it reaches the model as `isError`. */
export class UpstreamUnavailableError extends McpError {
  constructor(message = 'Upstream unavailable: a dependency did not answer', data?: Record<string, unknown>) {
    super(ErrorCode.UpstreamUnavailable, message, { reason: 'upstream_unavailable', ...data });
  }
}

/** `-32007 Conflict`: the state changed underneath. From a tool it reaches the model as `isError`. */
export class ConflictError extends McpError {
  constructor(message = 'Conflict', data?: Record<string, unknown>) {
    super(ErrorCode.Conflict, message, { reason: 'conflict', ...data });
  }
}
