import { InvalidParamsError, McpError } from '../../errors/mcp.error';
import { LOGGING_LEVELS, LoggingLevel } from '../../wire/logging-level';
import { McpClientInfo } from '../../wire/client-info';
import { ErrorCode, JsonRpcRequest } from '../../wire/json-rpc';
import { MetaKey } from '../../wire/meta-keys';
import {
  ALL_PROTOCOL_VERSIONS,
  ModernProtocolVersion,
  isModernVersion,
  isSupportedVersion,
} from '../../wire/protocol-version';

/** What a 2026-07-28 request says about itself in `_meta`: the state a 2025 session used to hold. @internal */
export interface ModernRequestMeta {
  protocolVersion: ModernProtocolVersion;
  clientCapabilities: Record<string, unknown>;
  clientInfo?: McpClientInfo;
  /** Absent: the server sends this request no `notifications/message` at all. */
  logLevel?: LoggingLevel;
}

/** The request headers Streamable HTTP mirrors from the body (absent on stdio). @internal */
export interface ModernHeaders {
  protocolVersion?: string;
  method?: string;
  name?: string;
  /** `Mcp-Param-*` headers by their lower-cased name part (`region` for `Mcp-Param-Region`). */
  params?: Record<string, string>;
}

const MAX_CLIENT_METADATA = 16_384;
/** Methods whose target is mirrored in `Mcp-Name`, and the param it mirrors (tasks: so a gateway can route by task). */
const NAMED: Record<string, 'name' | 'uri' | 'taskId'> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads and checks the per-request `_meta` of a 2026-07-28 request (and, over HTTP, the headers mirroring it), in the
 * order the specification's errors imply: missing fields `-32602`, headers not matching the body `-32020`, an
 * unsupported revision `-32022` naming the supported ones.
 * @internal
 */
export function readModernMeta(request: JsonRpcRequest, headers?: ModernHeaders): ModernRequestMeta {
  const meta = request.params?._meta;
  if (!isObject(meta))
    throw missing('_meta', 'Invalid params: _meta with the protocol version and client capabilities is required');
  const version = meta[MetaKey.protocolVersion];
  if (typeof version !== 'string' || version.length === 0 || version.length > 64)
    throw missing(MetaKey.protocolVersion, `Invalid params: _meta["${MetaKey.protocolVersion}"] is required`);
  if (headers) checkHeaders(request, version, headers);
  if (!isModernVersion(version)) {
    const message = isSupportedVersion(version)
      ? `Unsupported protocol version: ${version} is served through initialize (a session), not per-request _meta`
      : 'Unsupported protocol version';
    throw new McpError(ErrorCode.UnsupportedProtocolVersion, message, {
      supported: [...ALL_PROTOCOL_VERSIONS],
      requested: version,
    });
  }
  const capabilities = meta[MetaKey.clientCapabilities];
  if (!isObject(capabilities))
    throw missing(
      MetaKey.clientCapabilities,
      `Invalid params: _meta["${MetaKey.clientCapabilities}"] must be an object`,
    );
  const info = meta[MetaKey.clientInfo];
  if (info !== undefined && !isObject(info))
    throw new InvalidParamsError(`Invalid params: _meta["${MetaKey.clientInfo}"] must be an object`, {
      field: MetaKey.clientInfo,
      reason: 'type',
    });
  if (size(capabilities) + size(info) > MAX_CLIENT_METADATA)
    throw new InvalidParamsError('Invalid params: client capabilities and clientInfo are too large', {
      field: MetaKey.clientCapabilities,
      reason: 'size',
    });
  const level = meta[MetaKey.logLevel];
  if (level !== undefined && !(LOGGING_LEVELS as readonly unknown[]).includes(level))
    throw new InvalidParamsError(`Invalid params: _meta["${MetaKey.logLevel}"] must be a syslog level`, {
      field: MetaKey.logLevel,
      reason: 'enum',
    });
  return {
    protocolVersion: version,
    clientCapabilities: capabilities,
    clientInfo: info as McpClientInfo | undefined,
    logLevel: level as LoggingLevel | undefined,
  };
}

/**
 * The headers a load balancer may route on must say what the body says (`-32020` otherwise): `MCP-Protocol-Version`,
 * `Mcp-Method`, and `Mcp-Name` for calls naming a tool, prompt or resource (Base64 sentinel decoded).
 */
function checkHeaders(request: JsonRpcRequest, version: string, headers: ModernHeaders): void {
  if (headers.protocolVersion === undefined) throw mismatch('the MCP-Protocol-Version header is required');
  if (headers.protocolVersion !== version)
    throw mismatch('the MCP-Protocol-Version header does not match _meta protocolVersion');
  if (headers.method === undefined) throw mismatch('the Mcp-Method header is required');
  if (headers.method !== request.method) throw mismatch('the Mcp-Method header does not match the body method');
  const field = NAMED[request.method];
  if (!field) return;
  const value = request.params?.[field];
  if (headers.name === undefined) {
    if (typeof value === 'string') throw mismatch('the Mcp-Name header is required');
    return;
  }
  const decoded = decodeHeaderValue(headers.name);
  if (decoded === undefined) throw mismatch('the Mcp-Name header is not a valid value');
  if (decoded !== value) throw mismatch(`the Mcp-Name header does not match params.${field}`);
}

/** A header value as sent: plain visible ASCII, or the `=?base64?…?=` sentinel around UTF-8. @internal */
export function decodeHeaderValue(raw: string): string | undefined {
  const m = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/.exec(raw);
  if (!m) return /^[\x20-\x7e\t]*$/.test(raw) ? raw.trim() : undefined;
  const text = Buffer.from(m[1], 'base64').toString('utf8');
  // Canonical, padded Base64 only: a value that does not re-encode to itself is malformed and refused.
  return Buffer.from(text, 'utf8').toString('base64') === m[1] ? text : undefined;
}

const mismatch = (what: string) => new McpError(ErrorCode.HeaderMismatch, `Header mismatch: ${what}`);
const missing = (field: string, message: string) => new InvalidParamsError(message, { field, reason: 'required' });

function size(value: unknown): number {
  try {
    return JSON.stringify(value ?? {}).length;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
