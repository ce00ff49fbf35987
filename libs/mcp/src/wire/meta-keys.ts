/** The `_meta` keys the 2026-07-28 revision reserves for per-request protocol data. */
export const MetaKey = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/** Whether a request's params carry the modern per-request protocol version (the mark of a 2026-07-28 request). */
export function hasModernMeta(params: unknown): boolean {
  const meta = (params as { _meta?: unknown } | undefined)?._meta;
  return typeof meta === 'object' && meta !== null && MetaKey.protocolVersion in meta;
}
