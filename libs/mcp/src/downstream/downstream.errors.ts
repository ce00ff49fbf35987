import {
  ConflictError,
  RateLimitedError,
  ServerError,
  ToolExecutionError,
  UpstreamUnavailableError,
} from '../errors/mcp.error';
import { ErrorCode } from '../wire/json-rpc';

/*
 * Why one class per outcome, each extending the platform's own typed error: a tool that lets a downstream failure
 * escape gets exactly the outcome of the corporate table (docs/compliance.md#s13), decided by the one error mapping
 * of the platform, with nothing to catch. What each class adds (`downstream`, `status`) is for the tool that does
 * catch it; the downstream's name is never in the message or `data` (an internal service name must not reach the
 * client), only in the server's logs.
 */

/** What every downstream error carries besides its message. */
export interface DownstreamFailure {
  /** The downstream's configured name. */
  readonly downstream: string;
  /** The HTTP status it answered with; undefined when it did not answer. */
  readonly status: number | undefined;
}

/**
 * The downstream refused the request (400, 401, 403, 404 and the other 4xx but 409 and 429): the model reads the
 * upstream's reason as an `isError` result. `code` is the table's code (`-32602`, or `-32000` for 401 and 403).
 */
export class DownstreamRejectedError extends ToolExecutionError implements DownstreamFailure {
  constructor(
    message: string,
    readonly downstream: string,
    readonly status: number,
    readonly code: number = status === 401 || status === 403 ? ErrorCode.ServerError : ErrorCode.InvalidParams,
  ) {
    super(message);
    this.name = 'DownstreamRejectedError';
  }
}

/** 409 from the downstream: `-32007`, an `isError` result. */
export class DownstreamConflictError extends ConflictError implements DownstreamFailure {
  readonly status = 409;
  constructor(
    message: string,
    readonly downstream: string,
  ) {
    super(message, { status: 409 });
    this.name = 'DownstreamConflictError';
  }
}

/** 502, 503, 504, no answer in time, or the breaker open: `-32006`, an `isError` result. */
export class DownstreamUnavailableError extends UpstreamUnavailableError implements DownstreamFailure {
  constructor(
    message: string,
    readonly downstream: string,
    readonly status: number | undefined,
  ) {
    super(message, status === undefined ? undefined : { status });
    this.name = 'DownstreamUnavailableError';
  }
}

/** 429 from the downstream: a thrown `-32003` with `retryAfter` seconds (the client schedules its retry). */
export class DownstreamRateLimitedError extends RateLimitedError implements DownstreamFailure {
  readonly status = 429;
  constructor(
    retryAfter: number,
    message: string,
    readonly downstream: string,
  ) {
    super(retryAfter, message);
    this.name = 'DownstreamRateLimitedError';
  }
}

/**
 * Another 5xx, a response too large to read, or a request the client refused to send (it carried the caller's own
 * token): a thrown `-32000`, sanitised.
 */
export class DownstreamServerError extends ServerError implements DownstreamFailure {
  constructor(
    message: string,
    readonly downstream: string,
    readonly status: number | undefined,
    reason = 'upstream_error',
  ) {
    super(message, status === undefined ? { reason } : { reason, status });
    this.name = 'DownstreamServerError';
  }
}

/** The union of the downstream errors. */
export type DownstreamError =
  | DownstreamRejectedError
  | DownstreamConflictError
  | DownstreamUnavailableError
  | DownstreamRateLimitedError
  | DownstreamServerError;

/**
 * True for an error thrown by a downstream client (to inspect `status` in a tool that catches it).
 *
 * @example catch (e) { if (isDownstreamError(e) && e.status === 404) return { content: [] }; throw e; }
 */
export function isDownstreamError(error: unknown): error is DownstreamError {
  return (
    error instanceof DownstreamRejectedError ||
    error instanceof DownstreamConflictError ||
    error instanceof DownstreamUnavailableError ||
    error instanceof DownstreamRateLimitedError ||
    error instanceof DownstreamServerError
  );
}
