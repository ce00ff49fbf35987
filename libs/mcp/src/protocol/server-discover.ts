import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { ALL_PROTOCOL_VERSIONS } from '../wire/protocol-version';

/**
 * `server/discover` (2026-07-28): every revision served on this endpoint (the modern one per request, the session-era
 * ones through `initialize`), the capabilities and the instructions. The envelope adds `serverInfo` and caching hints.
 * @internal
 */
export function discoverResult(
  capabilities: Record<string, unknown>,
  options: ResolvedMcpOptions,
): Record<string, unknown> {
  const result: Record<string, unknown> = { supportedVersions: [...ALL_PROTOCOL_VERSIONS], capabilities };
  if (options.instructions) result.instructions = options.instructions;
  return result;
}
