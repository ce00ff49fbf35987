import { Logger } from '@nestjs/common';
import { McpAuthOptions, ResolvedAuthConfig } from '../options/auth-options.interface';
import { AuthSettings, createAuthSettings } from './auth-settings.factory';
import { createDevIssuerConfig } from './dev-issuer-config.factory';
import { createIssuerConfig, issuerSettingsOf } from './issuer-config.factory';
import { unauthenticatedHostError } from './loopback-host';

/**
 * Resolves the auth configuration at boot: options first, then the environment. In production a
 * missing issuer, JWKS or audience, or `disabled`, stops the boot; elsewhere a missing issuer
 * starts the local development issuer.
 * @internal
 */
export async function createAuthConfig(
  options: McpAuthOptions = {},
  service: string,
  servesHttp = true,
): Promise<ResolvedAuthConfig> {
  const env = process.env;
  // Fail closed: only an explicit development or test environment may relax anything.
  const relaxed = env.NODE_ENV === 'development' || env.NODE_ENV === 'test';
  const production = !relaxed && env.NODE_ENV !== undefined && env.NODE_ENV !== '';
  const disabled = options.disabled ?? env.MCP_AUTH_DISABLED === 'true';
  const base = createAuthSettings(options, env, relaxed);
  if (!servesHttp) return disabledConfig(base);
  if (disabled) {
    if (!relaxed)
      throw new Error(
        `McpModule auth: authentication can be disabled only with NODE_ENV=development or test (NODE_ENV is ${env.NODE_ENV ? `"${env.NODE_ENV}"` : 'unset'}); it is always refused when NODE_ENV=production`,
      );
    const exposed = unauthenticatedHostError(env.HOST);
    if (exposed) throw exposed;
    new Logger('McpAuth').warn('Authentication is DISABLED (test fixtures only; refused in production)');
    return disabledConfig(base);
  }
  const issuerSettings = issuerSettingsOf(options, env);
  return (
    createIssuerConfig(options, issuerSettings, base, relaxed) ??
    createDevIssuerConfig(options, issuerSettings, base, production, service, env.HOST)
  );
}

function disabledConfig(base: AuthSettings): ResolvedAuthConfig {
  return { mode: 'disabled', jwks: false, jwksUri: '', issuer: '', audience: '', authorizationServers: [], ...base };
}
