/** Identity of the MCP client as it introduced itself in `initialize`. */
export interface McpClientInfo {
  name: string;
  version: string;
  title?: string;
  [key: string]: unknown;
}
