import { ArgumentsHost, Catch, ExceptionFilter, Inject } from '@nestjs/common';
import type { Request, Response } from 'express';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../interfaces/mcp-module-options.interface';
import { MCP_AUTH_CONFIG } from './auth.constants';
import { ResolvedAuthConfig } from './auth-options.interface';
import { McpAuthError } from './mcp-auth.error';
import { ErrorCode, errorResponse } from '../protocol/json-rpc';

/** Where a client finds how to get a token (RFC 9728). @internal */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

/**
 * Answers auth failures on the MCP endpoints: 401/403, a `WWW-Authenticate: Bearer` challenge with
 * `realm`, `resource_metadata` and (when the token was the problem) `error`, and a JSON-RPC error body.
 * @internal
 */
@Catch(McpAuthError)
export class McpAuthExceptionFilter implements ExceptionFilter {
  constructor(
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
    @Inject(MCP_AUTH_CONFIG) private readonly config: ResolvedAuthConfig,
  ) {}

  catch(error: McpAuthError, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<Request>();
    const res = host.switchToHttp().getResponse<Response>();
    if (res.headersSent) return;
    const params = [`realm="${this.options.name}"`, `resource_metadata="${resourceMetadataUrl(req, this.config, this.options)}"`];
    if (error.bearerError) params.push(`error="${error.bearerError}"`, `error_description="${error.description}"`);
    if (error.requiredScope) params.push(`scope="${error.requiredScope}"`);
    res.writeHead(error.status, { 'WWW-Authenticate': `Bearer ${params.join(', ')}`, 'Content-Type': 'application/json' });
    res.end(JSON.stringify(errorResponse(null, ErrorCode.Forbidden, error.status === 401 ? `Unauthorized: ${error.description}` : `Forbidden: ${error.description}`)));
  }
}

/** The absolute URL of this server's protected resource metadata. @internal */
export function resourceMetadataUrl(req: Request, config: ResolvedAuthConfig, options: ResolvedMcpOptions): string {
  return `${resourceUrl(req, config, options).replace(/\/$/, '')}${PROTECTED_RESOURCE_PATH}`.replace(`${options.path}${PROTECTED_RESOURCE_PATH}`, PROTECTED_RESOURCE_PATH);
}

/** This server's resource URL: configured, or derived from the (already allow-listed) Host. @internal */
export function resourceUrl(req: Request, config: ResolvedAuthConfig, options: ResolvedMcpOptions): string {
  if (config.resourceUrl) return config.resourceUrl;
  return `${req.protocol}://${req.headers.host ?? 'localhost'}${options.path}`;
}
