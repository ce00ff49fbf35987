import { McpAuthOptions, ResolvedAuthConfig } from '../options/auth-options.interface';
import { AuthSettings } from './auth-settings.factory';
import { DevIssuer } from './dev-issuer';
import { IssuerSettings } from './issuer-config.factory';
import { isLoopbackHost } from './loopback-host';

/**
 * No complete issuer configured: refuse when anything points at a real issuer (production, a partial
 * configuration, `devIssuer: false`), since a silent development issuer would hide the mistake;
 * otherwise start the local development issuer, which serves loopback only.
 * @internal
 */
export async function createDevIssuerConfig(
  options: McpAuthOptions,
  { jwksUri, issuer, audience }: IssuerSettings,
  base: AuthSettings,
  production: boolean,
  service: string,
  host: string | undefined,
): Promise<ResolvedAuthConfig> {
  if (production || options.devIssuer === false || jwksUri || issuer || audience || base.hs256Secret) {
    const missing = [
      ['MCP_JWKS_URI', jwksUri],
      ['MCP_JWT_ISSUER', issuer],
      ['MCP_JWT_AUDIENCE', audience],
    ]
      .filter(([, v]) => !v)
      .map(([k]) => k);
    throw new Error(
      `McpModule auth: missing ${missing.join(', ')} (or the matching forRoot auth options)${production ? ' — required when NODE_ENV=production' : ''}`,
    );
  }
  if (host && !isLoopbackHost(host)) {
    throw new Error(
      `McpModule auth: no issuer configured and HOST=${host} is not loopback; configure MCP_JWKS_URI, MCP_JWT_ISSUER and MCP_JWT_AUDIENCE (the development issuer only serves loopback)`,
    );
  }
  const dev = await DevIssuer.start(service);
  return {
    mode: 'jwt',
    jwks: true,
    jwksUri: dev.jwksUri,
    issuer: dev.issuer,
    audience: dev.audience,
    authorizationServers: [dev.issuer],
    ...base,
    algorithms: ['RS256'],
    dev: {
      mint: (scope, ttl) => dev.mint(scope, ttl),
      keyFile: dev.keyFile,
      served: () => dev.recordAsLastServed(),
      close: () => dev.close(),
    },
  };
}
