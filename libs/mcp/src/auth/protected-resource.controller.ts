import { Controller, Get, Inject, Req } from '@nestjs/common';
import type { Request } from 'express';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../mcp-module-options.interface';
import { MCP_AUTH_CONFIG } from './auth.constants';
import { ResolvedAuthConfig } from './auth-options.interface';
import { PROTECTED_RESOURCE_PATH, resourceUrl } from './resource-url';

/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728), unauthenticated, so generic MCP clients can find
 * the authorization server. Served at the root and under the MCP path suffix.
 * @internal
 */
@Controller()
export class ProtectedResourceController {
  constructor(
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
    @Inject(MCP_AUTH_CONFIG) private readonly config: ResolvedAuthConfig,
  ) {}

  @Get([PROTECTED_RESOURCE_PATH, `${PROTECTED_RESOURCE_PATH}/*path`])
  metadata(@Req() req: Request) {
    return {
      resource: resourceUrl(req, this.config, this.options),
      authorization_servers: this.config.authorizationServers,
      bearer_methods_supported: ['header'],
      resource_name: this.options.title ?? this.options.name,
      ...(this.config.mode === 'disabled' ? { mcp_authentication: 'disabled' } : {}),
    };
  }
}
