import { MAX_TOKEN_CHARS } from './request-bounds';
/** JSON-RPC 2.0 message shapes as they travel on the wire. */
export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcResultResponse {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result: Record<string, unknown>;
}

export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id: JsonRpcId | null;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** Standard and corporate (Appendix B) JSON-RPC error codes. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ServerError: -32000,
  Forbidden: -32001,
  ResourceNotFound: -32002,
  RateLimited: -32003,
  Timeout: -32004,
  PayloadTooLarge: -32005,
  UpstreamUnavailable: -32006,
  Conflict: -32007,
  /** 2026-07-28: HTTP headers missing or not matching the body. */
  HeaderMismatch: -32020,
  /** 2026-07-28: the request needs a client capability the client did not declare. */
  MissingRequiredClientCapability: -32021,
  /** 2026-07-28: the requested protocol revision is not served; `data.supported` lists those that are. */
  UnsupportedProtocolVersion: -32022,
} as const;

/** What {@link classifyMessage} found in a parsed JSON value. */
export type ClassifiedMessage =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'response'; message: JsonRpcResponse }
  | { kind: 'invalid'; id: JsonRpcId | null; reason: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const isValidId = (id: unknown): id is JsonRpcId =>
  (typeof id === 'string' && id.length <= MAX_TOKEN_CHARS) || (typeof id === 'number' && Number.isSafeInteger(id));

/**
 * Checks one JSON value against JSON-RPC 2.0 and says what it is.
 * Ids must be strings (up to 256 characters) or safe integers; MCP forbids `null` request ids.
 * @internal
 */
export function classifyMessage(value: unknown): ClassifiedMessage {
  if (!isObject(value) || value.jsonrpc !== '2.0') {
    const id = isObject(value) && isValidId(value.id) ? value.id : null;
    return { kind: 'invalid', id, reason: 'Not a JSON-RPC 2.0 message' };
  }
  const hasId = 'id' in value;
  if (typeof value.method === 'string') {
    if (value.params !== undefined && !isObject(value.params)) {
      return {
        kind: 'invalid',
        id: hasId && isValidId(value.id) ? value.id : null,
        reason: 'params must be an object',
      };
    }
    if (!hasId) return { kind: 'notification', message: value as unknown as JsonRpcNotification };
    if (!isValidId(value.id)) return { kind: 'invalid', id: null, reason: 'id must be a string or an integer' };
    return { kind: 'request', message: value as unknown as JsonRpcRequest };
  }
  if ('method' in value)
    return { kind: 'invalid', id: isValidId(value.id) ? value.id : null, reason: 'method must be a string' };
  if (hasId && 'result' in value !== 'error' in value) {
    if ('result' in value && isObject(value.result) && isValidId(value.id)) {
      return { kind: 'response', message: value as unknown as JsonRpcResponse };
    }
    const error = value.error;
    if (
      isObject(error) &&
      Number.isInteger(error.code) &&
      typeof error.message === 'string' &&
      (isValidId(value.id) || value.id === null)
    ) {
      return { kind: 'response', message: value as unknown as JsonRpcResponse };
    }
  }
  return {
    kind: 'invalid',
    id: isValidId(value.id) ? value.id : null,
    reason: 'Not a request, notification or response',
  };
}

/** @internal */
export const isJsonRpcId = isValidId;

/** @internal */
export function errorResponse(
  id: JsonRpcId | null,
  code: number,
  message: string,
  data?: unknown,
): JsonRpcErrorResponse {
  const error: JsonRpcErrorObject = data === undefined ? { code, message } : { code, message, data };
  return { jsonrpc: '2.0', id, error };
}

/**
 * Serialises a result whose body is already a JSON string (lists serialised at boot) without
 * parsing it again.
 * @internal
 */
export function serialiseRawResult(id: JsonRpcId, rawResultJson: string): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${rawResultJson}}`;
}
