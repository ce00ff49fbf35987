import { Injectable } from '@nestjs/common';
import { McpListKind, McpRegistry } from './registry/mcp.registry';
import { McpSessionManager } from './protocol/mcp-session.manager';

/**
 * Tells connected clients that something changed: a resource they subscribed to
 * (`notifications/resources/updated`) or a whole list (`notifications/<kind>/list_changed`).
 *
 * @example this.notifier.resourceUpdated(`orders://orders/${id}`);
 */
@Injectable()
export class McpNotifier {
  constructor(
    private readonly sessions: McpSessionManager,
    private readonly registry: McpRegistry,
  ) {}

  resourceUpdated(uri: string): void {
    this.sessions.resourceUpdated(uri);
  }

  listChanged(kind: McpListKind): void {
    this.registry.changed(kind);
  }
}
