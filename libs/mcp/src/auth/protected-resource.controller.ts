import { Controller, Get, Inject, Req, Type, UseFilters, UseGuards } from '@nestjs/common';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { MCP_AUTH_CONFIG } from './auth.constants';
import { ResolvedAuthConfig } from '../options/auth-options.interface';
import { PROTECTED_RESOURCE_PATH, resourceUrl } from './resource-url';
import { nodeRequest } from '../http-adapter/node-http';
import { McpOriginGuard } from './origin.guard';
import { McpOriginRefusalFilter } from './origin-refusal.filter';

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728), unauthenticated, so generic MCP clients can find the authorization
 * server. Served at the root and at the well-known path followed by the MCP endpoint's path (RFC 9728 §3.1: where a
 * client looks first for a resource with a path), two literal routes that both adapters match alike.
 * @internal
 */
export function createProtectedResourceController(mcpPath: string): Type<unknown> {
  const paths =
    mcpPath === '/' ? [PROTECTED_RESOURCE_PATH] : [PROTECTED_RESOURCE_PATH, PROTECTED_RESOURCE_PATH + mcpPath];

  @Controller()
  @UseGuards(McpOriginGuard)
  @UseFilters(McpOriginRefusalFilter)
  class ProtectedResourceController {
    constructor(
      @Inject(MCP_MODULE_OPTIONS) readonly options: ResolvedMcpOptions,
      @Inject(MCP_AUTH_CONFIG) readonly config: ResolvedAuthConfig,
    ) {}

    @Get(paths)
    metadata(@Req() req: unknown) {
      return {
        resource: resourceUrl(nodeRequest(req), this.config, this.options),
        authorization_servers: this.config.authorizationServers,
        bearer_methods_supported: ['header'],
        resource_name: this.options.title ?? this.options.name,
        ...(this.config.mode === 'disabled' ? { mcp_authentication: 'disabled' } : {}),
      };
    }
  }
  return ProtectedResourceController;
}
