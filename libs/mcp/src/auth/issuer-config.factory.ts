import { McpAuthOptions, ResolvedAuthConfig } from '../options/auth-options.interface';
import { AuthSettings } from './auth-settings.factory';

/** Where tokens come from, as configured (options first, then the environment); any part may be missing. */
export interface IssuerSettings {
  jwksUri?: string;
  issuer?: string;
  audience?: string;
}

/** @internal */
export function issuerSettingsOf(options: McpAuthOptions, env: NodeJS.ProcessEnv): IssuerSettings {
  return {
    jwksUri: options.jwksUri ?? env.MCP_JWKS_URI,
    issuer: options.issuer ?? env.MCP_JWT_ISSUER,
    audience: options.audience ?? env.MCP_JWT_AUDIENCE,
  };
}

/**
 * The configured token check: JWKS, the development HS256 secret, or introspection of opaque tokens,
 * tried in that order. `undefined` when none is complete (the caller then refuses or starts the
 * development issuer).
 * @internal
 */
export function createIssuerConfig(
  options: McpAuthOptions,
  { jwksUri, issuer, audience }: IssuerSettings,
  base: AuthSettings,
  relaxed: boolean,
): ResolvedAuthConfig | undefined {
  if (jwksUri && issuer && audience) {
    return {
      mode: 'jwt',
      jwks: true,
      jwksUri,
      issuer,
      audience,
      authorizationServers: options.authorizationServers ?? [issuer],
      ...base,
    };
  }
  if (base.hs256Secret && issuer && audience && !jwksUri) {
    return {
      mode: 'jwt',
      jwks: false,
      jwksUri: '',
      issuer,
      audience,
      authorizationServers: options.authorizationServers ?? [issuer],
      ...base,
    };
  }
  if (base.introspection && !relaxed) {
    if (!base.introspection.url.startsWith('https://'))
      throw new Error('McpModule auth: the introspection URL must be https:// outside development');
    if (!issuer || !audience)
      throw new Error(
        'McpModule auth: introspection needs MCP_JWT_ISSUER and MCP_JWT_AUDIENCE outside development (tokens are checked against them)',
      );
  }
  if (base.introspection && !jwksUri) {
    // Opaque tokens only: issuer and audience, when given, are checked against the introspection answer.
    return {
      mode: 'jwt',
      jwks: false,
      jwksUri: '',
      issuer: issuer ?? '',
      audience: audience ?? '',
      authorizationServers: options.authorizationServers ?? (issuer ? [issuer] : []),
      ...base,
    };
  }
  return undefined;
}
