import { SetMetadata } from '@nestjs/common';
import { MCP_APP_METADATA } from '../mcp.constants';
import { McpAppOptions } from './decorator-options.interface';

/**
 * Publishes a provider method as an MCP Apps view (extension `io.modelcontextprotocol/ui`, docs/apps.md): a `ui://`
 * resource whose method returns the HTML document, served with mimeType `text/html;profile=mcp-app` and the view's
 * `_meta.ui` (csp, permissions, domain, prefersBorder). Tools link to it with `@McpTool({ ui: { resourceUri } })`.
 *
 * @example
 * @McpApp({ uri: 'ui://desk/ticket-board', name: 'ticket_board', prefersBorder: true })
 * board(): string { return BOARD_HTML; }
 */
export const McpApp = (options: McpAppOptions): MethodDecorator => SetMetadata(MCP_APP_METADATA, options);
