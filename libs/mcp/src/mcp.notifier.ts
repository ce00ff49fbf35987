import { Injectable } from '@nestjs/common';
import { McpListKind, McpRegistry } from './registry/mcp.registry';
import { McpSessionManager } from './sessions/mcp-session.manager';

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
  ) {
    // Sessions sit below the registry: the wiring from list changes to every session's stream lives here.
    registry.onListChanged((kind) =>
      sessions.broadcast({ jsonrpc: '2.0', method: `notifications/${kind}/list_changed` }),
    );
  }

  resourceUpdated(uri: string): void {
    this.sessions.resourceUpdated(uri);
  }

  listChanged(kind: McpListKind): void {
    this.registry.changed(kind);
  }
}
