import type { Request } from 'express';
import { ResolvedMcpOptions } from '../mcp-module-options.interface';
import { ResolvedAuthConfig } from './auth-options.interface';

/** Where a client finds how to get a token (RFC 9728). @internal */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

/** The absolute URL of this server's protected resource metadata. @internal */
export function resourceMetadataUrl(req: Request, config: ResolvedAuthConfig, options: ResolvedMcpOptions): string {
  return `${resourceUrl(req, config, options).replace(/\/$/, '')}${PROTECTED_RESOURCE_PATH}`.replace(
    `${options.path}${PROTECTED_RESOURCE_PATH}`,
    PROTECTED_RESOURCE_PATH,
  );
}

/** This server's resource URL: configured, or derived from the (already allow-listed) Host. @internal */
export function resourceUrl(req: Request, config: ResolvedAuthConfig, options: ResolvedMcpOptions): string {
  if (config.resourceUrl) return config.resourceUrl;
  return `${req.protocol}://${req.headers.host ?? 'localhost'}${options.path}`;
}
