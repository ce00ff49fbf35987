import { Logger } from '@nestjs/common';
import { McpAuthOptions, ResolvedAuthConfig } from '../options/auth-options.interface';
import { DevIssuer } from './dev-issuer';
import { isLoopbackHost, unauthenticatedHostError } from './loopback-host';

const MAX_SKEW_SEC = 60;
const MAX_JWKS_TTL_MS = 10 * 60_000;
const MAX_REFETCH_INTERVAL_MS = 60_000;
const ALGORITHMS = ['RS256', 'ES256'] as const;

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
  const base = {
    clockSkewSec: options.clockSkewSec ?? 30,
    jwksCacheTtlMs: options.jwksCacheTtlMs ?? MAX_JWKS_TTL_MS,
    jwksRefetchIntervalMs: options.jwksRefetchIntervalMs ?? (Number(env.MCP_JWKS_REFETCH_INTERVAL_MS) || 10_000),
    algorithms: options.algorithms ??
      (env.MCP_JWT_ALGORITHMS?.split(',').map((a) => a.trim()) as ('RS256' | 'ES256')[] | undefined) ?? [...ALGORITHMS],
    resourceUrl: options.resourceUrl ?? env.MCP_RESOURCE_URL,
    anonymousListing: options.anonymousListing ?? env.MCP_ANONYMOUS_LISTING === 'true',
    introspection: introspectionOf(options, env),
    hs256Secret: options.hs256Secret ?? (env.MCP_JWT_HS256_SECRET || undefined),
  };
  if (base.hs256Secret !== undefined) {
    if (!relaxed)
      throw new Error(
        'McpModule auth: HS256 (hs256Secret / MCP_JWT_HS256_SECRET) is for local development only: it needs NODE_ENV=development or test, and is refused when NODE_ENV=production',
      );
    if (base.hs256Secret.length < 32) throw new Error('McpModule auth: hs256Secret must be at least 32 characters');
  }
  // The interval is how long a real key rotation may wait behind strangers' unknown kids: a minute at most.
  const interval = base.jwksRefetchIntervalMs;
  if (!Number.isInteger(interval) || interval < 100 || interval > MAX_REFETCH_INTERVAL_MS)
    throw new Error('McpModule auth: jwksRefetchIntervalMs must be an integer from 100 ms to 60 s');
  if (base.clockSkewSec < 0 || base.clockSkewSec > MAX_SKEW_SEC)
    throw new Error(`McpModule auth: clockSkewSec must be 0-${MAX_SKEW_SEC}`);
  if (base.jwksCacheTtlMs <= 0 || base.jwksCacheTtlMs > MAX_JWKS_TTL_MS)
    throw new Error('McpModule auth: jwksCacheTtlMs must be at most 10 minutes');
  const bad = base.algorithms.filter((a) => !(ALGORITHMS as readonly string[]).includes(a));
  if (bad.length || base.algorithms.length === 0)
    throw new Error(`McpModule auth: algorithms must be RS256 and/or ES256 (got ${base.algorithms.join(',')})`);
  if (!servesHttp)
    return { mode: 'disabled', jwks: false, jwksUri: '', issuer: '', audience: '', authorizationServers: [], ...base };
  if (disabled) {
    if (!relaxed)
      throw new Error(
        `McpModule auth: authentication can be disabled only with NODE_ENV=development or test (NODE_ENV is ${env.NODE_ENV ? `"${env.NODE_ENV}"` : 'unset'}); it is always refused when NODE_ENV=production`,
      );
    const exposed = unauthenticatedHostError(env.HOST);
    if (exposed) throw exposed;
    new Logger('McpAuth').warn('Authentication is DISABLED (test fixtures only; refused in production)');
    return { mode: 'disabled', jwks: false, jwksUri: '', issuer: '', audience: '', authorizationServers: [], ...base };
  }
  const jwksUri = options.jwksUri ?? env.MCP_JWKS_URI;
  const issuer = options.issuer ?? env.MCP_JWT_ISSUER;
  const audience = options.audience ?? env.MCP_JWT_AUDIENCE;
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
  const host = env.HOST;
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

function introspectionOf(o: McpAuthOptions, env: NodeJS.ProcessEnv): ResolvedAuthConfig['introspection'] {
  const url = o.introspection?.url ?? env.MCP_INTROSPECTION_URL;
  if (!url) return undefined;
  const clientId = o.introspection?.clientId ?? env.MCP_INTROSPECTION_CLIENT_ID;
  const clientSecret = o.introspection?.clientSecret ?? env.MCP_INTROSPECTION_CLIENT_SECRET;
  if (!clientId || !clientSecret)
    throw new Error(
      'McpModule auth: introspection needs a client id and secret (MCP_INTROSPECTION_CLIENT_ID, MCP_INTROSPECTION_CLIENT_SECRET)',
    );
  const cacheTtlMs = o.introspection?.cacheTtlMs ?? 30_000;
  if (cacheTtlMs < 0 || cacheTtlMs > 60_000)
    throw new Error('McpModule auth: introspection cacheTtlMs must be at most 60 s');
  return { url, clientId, clientSecret, cacheTtlMs };
}
