import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../wire/protocol-version';

/**
 * The body of `project://version`. `version` is `options.version`, the very value `initialize`
 * reports as `serverInfo.version` (and `/health` as `version`), so the three never disagree.
 * @internal
 */
export function projectVersionDocument(options: ResolvedMcpOptions): Record<string, unknown> {
  const doc: Record<string, unknown> = { name: options.name };
  if (options.title) doc.title = options.title;
  doc.version = options.version;
  if (options.description) doc.description = options.description;
  doc.protocolVersions = [...SUPPORTED_PROTOCOL_VERSIONS];
  return doc;
}
