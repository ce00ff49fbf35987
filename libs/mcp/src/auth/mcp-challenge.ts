import { Inject, Injectable } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { MCP_AUTH_CONFIG } from './auth.constants';
import { ResolvedAuthConfig } from '../options/auth-options.interface';
import { resourceMetadataUrl } from './resource-url';

/** Builds `WWW-Authenticate: Bearer ...` challenges (RFC 6750, MCP authorization). @internal */
@Injectable()
export class McpChallenge {
  constructor(
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
    @Inject(MCP_AUTH_CONFIG) private readonly config: ResolvedAuthConfig,
  ) {}

  build(req: IncomingMessage, error?: string, description?: string, scope?: string): string {
    const params = [
      `realm="${this.options.name}"`,
      `resource_metadata="${resourceMetadataUrl(req, this.config, this.options)}"`,
    ];
    if (error) params.push(`error="${error}"`);
    if (description) params.push(`error_description="${description}"`);
    if (scope) params.push(`scope="${scope}"`);
    return `Bearer ${params.join(', ')}`;
  }

  insufficientScope(req: IncomingMessage, scope: string): string {
    return this.build(req, 'insufficient_scope', 'The token lacks a required scope', scope);
  }
}
