import type {
  McpUiAppCapabilities,
  McpUiHostContext,
  McpUiResourceMeta,
} from '@modelcontextprotocol/ext-apps/app-bridge';

/** What the test asks the host page to open: the server, its credentials, and the tool whose view to show. */
export interface OpenViewOptions {
  mcpUrl: string;
  token?: string;
  tool: string;
  sandboxUrl: string;
  hostContext?: McpUiHostContext;
}

/** What the host learned opening the view: the resource, its `_meta.ui`, and the view's own handshake. */
export interface OpenedView {
  resourceUri: string;
  ui: McpUiResourceMeta;
  appInfo?: { name: string; version: string };
  appCapabilities?: McpUiAppCapabilities;
}

/** One thing the host saw, in order: the proxy ready, the view initialized, each tool call it forwarded or refused,
 * the teardown. */
export type HostEvent =
  | { kind: 'sandbox-ready' }
  | { kind: 'initialized' }
  | { kind: 'tools/call'; name: string; refused: boolean }
  | { kind: 'log'; level: string; data: unknown }
  | { kind: 'size'; width?: number; height?: number }
  | { kind: 'teardown'; outcome: string };
