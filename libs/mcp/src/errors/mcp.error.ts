import { IntrinsicException } from '@nestjs/common';
import { ErrorCode } from '../protocol/json-rpc';

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
