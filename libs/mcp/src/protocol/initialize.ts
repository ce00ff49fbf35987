import { InvalidParamsError } from '../errors/mcp.error';
import { McpClientInfo } from '../wire/client-info';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { McpSession } from '../sessions/mcp-session';
import { ProtocolVersion, negotiateVersion } from '../wire/protocol-version';

const MAX_CLIENT_METADATA = 16_384;

/**
 * Negotiates the revision, records the client, and builds `InitializeResult`.
 * @internal
 */
export function initializeResult(
  params: Record<string, unknown>,
  session: McpSession,
  capabilities: (version: ProtocolVersion) => Record<string, unknown>,
  options: ResolvedMcpOptions,
): Record<string, unknown> {
  if (typeof params.protocolVersion !== 'string') {
    throw new InvalidParamsError('Invalid params: protocolVersion is required', {
      field: 'protocolVersion',
      reason: 'required',
    });
  }
  const clientCaps = params.capabilities;
  if (
    clientCaps !== undefined &&
    (typeof clientCaps !== 'object' || clientCaps === null || Array.isArray(clientCaps))
  ) {
    throw new InvalidParamsError('Invalid params: capabilities must be an object', {
      field: 'capabilities',
      reason: 'type',
    });
  }
  // Kept for the session's lifetime, so bounded: real clients send well under a kilobyte.
  if (metadataSize(clientCaps) + metadataSize(params.clientInfo) > MAX_CLIENT_METADATA) {
    throw new InvalidParamsError('Invalid params: capabilities and clientInfo are too large', {
      field: 'capabilities',
      reason: 'size',
    });
  }
  const version = negotiateVersion(params.protocolVersion);
  const info = params.clientInfo as McpClientInfo | undefined;
  session.negotiate(
    version,
    info && typeof info === 'object' ? info : undefined,
    (clientCaps as Record<string, unknown>) ?? {},
  );
  const serverInfo: Record<string, unknown> = { name: options.name, version: options.version };
  if (options.title) serverInfo.title = options.title;
  // Implementation.description exists from 2025-11-25 on (revisions are dates, so they sort as strings).
  if (options.description && version >= '2025-11-25') serverInfo.description = options.description;
  const result: Record<string, unknown> = { protocolVersion: version, capabilities: capabilities(version), serverInfo };
  if (options.instructions) result.instructions = options.instructions;
  return result;
}

/** Serialised size of client metadata; absurdly deep values count as too large instead of overflowing. */
function metadataSize(value: unknown): number {
  try {
    return JSON.stringify(value ?? {}).length;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}
