import { HttpException, HttpStatus, Logger } from '@nestjs/common';
import { ErrorCode, JsonRpcErrorObject } from '../wire/json-rpc';
import {
  ConflictError,
  McpError,
  ResourceNotFoundError,
  ToolExecutionError,
  UpstreamUnavailableError,
} from './mcp.error';
import { sanitizeErrorData, sanitizeErrorText } from './message-sanitizer';

const logger = new Logger('McpErrors');

/**
 * The one place that decides what a client sees for a thrown value in a protocol method.
 * Unknown errors become a generic `-32603`; the full error goes only to the server log. Messages and
 * `data` strings that pass through (they often echo the caller's input) are sanitised: no controls, no
 * bidi overrides, at most 500 characters.
 * @internal
 */
export function toJsonRpcError(error: unknown, context: string): JsonRpcErrorObject {
  if (error instanceof McpError) {
    const message = sanitizeErrorText(error.message);
    return error.data === undefined
      ? { code: error.code, message }
      : { code: error.code, message, data: sanitizeErrorData(error.data) };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    if (status === HttpStatus.FORBIDDEN || status === HttpStatus.UNAUTHORIZED)
      return { code: ErrorCode.Forbidden, message: 'Forbidden' };
    if (status === HttpStatus.NOT_FOUND) return { code: ErrorCode.ResourceNotFound, message: 'Resource not found' };
    if (status === HttpStatus.BAD_REQUEST) return { code: ErrorCode.InvalidParams, message: safeHttpMessage(error) };
    if (status === HttpStatus.CONFLICT) return { code: ErrorCode.Conflict, message: 'Conflict' };
    if (status === HttpStatus.TOO_MANY_REQUESTS)
      return { code: ErrorCode.RateLimited, message: 'Rate limited', data: { reason: 'rate_limited', retryAfter: 1 } };
    if (status === HttpStatus.PAYLOAD_TOO_LARGE)
      return { code: ErrorCode.PayloadTooLarge, message: 'Payload too large' };
    if (status === HttpStatus.SERVICE_UNAVAILABLE || status === HttpStatus.BAD_GATEWAY)
      return { code: ErrorCode.UpstreamUnavailable, message: 'Upstream unavailable' };
    if (status === HttpStatus.GATEWAY_TIMEOUT || status === HttpStatus.REQUEST_TIMEOUT)
      return { code: ErrorCode.Timeout, message: 'Timeout' };
  }
  logger.error(`${context} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return { code: ErrorCode.InternalError, message: 'Internal error' };
}

/**
 * Decides, for a value thrown by a tool, between a tool result with `isError: true` (the model can
 * act on it) and a protocol error. Returns the text for `isError` (sanitised like an error message),
 * or undefined for a protocol error.
 * @internal
 */
export function toolErrorText(error: unknown): string | undefined {
  const text = actionableText(error);
  return text === undefined ? undefined : sanitizeErrorText(text);
}

function actionableText(error: unknown): string | undefined {
  if (error instanceof ToolExecutionError) return error.message;
  // Actionable for the model (corporate standard v2.0 §13.4, see docs/compliance.md#s13): missing records,
  // conflicts, a dependency down.
  if (
    error instanceof ResourceNotFoundError ||
    error instanceof ConflictError ||
    error instanceof UpstreamUnavailableError
  )
    return error.message;
  if (error instanceof HttpException) {
    const status = error.getStatus();
    if (
      status >= 400 &&
      status < 500 &&
      status !== HttpStatus.FORBIDDEN &&
      status !== HttpStatus.UNAUTHORIZED &&
      status !== HttpStatus.TOO_MANY_REQUESTS
    ) {
      return safeHttpMessage(error);
    }
  }
  return undefined;
}

function safeHttpMessage(error: HttpException): string {
  const body = error.getResponse();
  const message = typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : body;
  const text = Array.isArray(message)
    ? message.slice(0, 8).join('; ')
    : typeof message === 'string'
      ? message
      : error.message;
  return sanitizeErrorText(String(text));
}
