import { ErrorCode } from '../wire/json-rpc';

/** Marks a tool result that reports invalid arguments (an `isError` result, not a tool failure). @internal */
export const INVALID_ARGUMENTS = Symbol('mcp:invalid-arguments');

const CLASSES: Record<number, string> = {
  [ErrorCode.ParseError]: 'parse_error',
  [ErrorCode.InvalidRequest]: 'invalid_request',
  [ErrorCode.MethodNotFound]: 'method_not_found',
  [ErrorCode.InvalidParams]: 'invalid_params',
  [ErrorCode.InternalError]: 'internal_error',
  [ErrorCode.ServerError]: 'server_error',
  [ErrorCode.Forbidden]: 'forbidden',
  [ErrorCode.ResourceNotFound]: 'resource_not_found',
  [ErrorCode.RateLimited]: 'rate_limited',
  [ErrorCode.Timeout]: 'timeout',
  [ErrorCode.PayloadTooLarge]: 'payload_too_large',
  [ErrorCode.UpstreamUnavailable]: 'upstream_unavailable',
  [ErrorCode.Conflict]: 'conflict',
};

/**
 * The error class of a JSON-RPC error code, as logs, metrics labels and span `error.type` show it:
 * a fixed vocabulary, so a metric's label set stays bounded whatever a handler throws.
 * @internal
 */
export const errorClassOf = (code: number): string => CLASSES[code] ?? 'error';

/** `ok`, `invalid_arguments` or `tool_error` for a successful JSON-RPC answer. @internal */
export function statusOfResult(result: unknown): string {
  if (!result || typeof result !== 'object' || (result as { isError?: unknown }).isError !== true) return 'ok';
  return (result as { [INVALID_ARGUMENTS]?: boolean })[INVALID_ARGUMENTS] ? 'invalid_arguments' : 'tool_error';
}
