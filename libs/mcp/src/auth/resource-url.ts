import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { ResolvedAuthConfig } from '../options/auth-options.interface';

/** Where a client finds how to get a token (RFC 9728). @internal */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

/** The absolute URL of this server's protected resource metadata. @internal */
export function resourceMetadataUrl(
  req: IncomingMessage,
  config: ResolvedAuthConfig,
  options: ResolvedMcpOptions,
): string {
  return `${resourceUrl(req, config, options).replace(/\/$/, '')}${PROTECTED_RESOURCE_PATH}`.replace(
    `${options.path}${PROTECTED_RESOURCE_PATH}`,
    PROTECTED_RESOURCE_PATH,
  );
}

/** This server's resource URL: configured, or derived from the (already allow-listed) Host. @internal */
export function resourceUrl(req: IncomingMessage, config: ResolvedAuthConfig, options: ResolvedMcpOptions): string {
  if (config.resourceUrl) return config.resourceUrl;
  // The connection's own scheme: no proxy header is trusted (X-Forwarded-Proto would let any client pick it).
  const scheme = (req.socket as TLSSocket | undefined)?.encrypted ? 'https' : 'http';
  return `${scheme}://${req.headers.host ?? 'localhost'}${options.path}`;
}
