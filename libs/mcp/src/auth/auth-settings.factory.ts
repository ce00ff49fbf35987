import { McpAuthOptions, ResolvedAuthConfig } from '../options/auth-options.interface';

const MAX_SKEW_SEC = 60;
const MAX_JWKS_TTL_MS = 10 * 60_000;
const MAX_REFETCH_INTERVAL_MS = 60_000;
// HS256 is not among them: it is the separate, development-only shared secret.
const AUTH_ALGORITHMS = ['RS256', 'ES256'] as const;

/** What every auth mode shares; the mode itself (issuer, JWKS, development issuer) is decided after. */
export type AuthSettings = Pick<
  ResolvedAuthConfig,
  | 'clockSkewSec'
  | 'jwksCacheTtlMs'
  | 'jwksRefetchIntervalMs'
  | 'algorithms'
  | 'resourceUrl'
  | 'anonymousListing'
  | 'introspection'
  | 'hs256Secret'
>;

/**
 * Reads the shared auth settings (options first, then the environment) and checks their bounds, so a
 * wrong value stops the boot whatever mode follows. `relaxed` is true under NODE_ENV=development or test.
 * @internal
 */
export function createAuthSettings(options: McpAuthOptions, env: NodeJS.ProcessEnv, relaxed: boolean): AuthSettings {
  const base = {
    clockSkewSec: options.clockSkewSec ?? 30,
    jwksCacheTtlMs: options.jwksCacheTtlMs ?? MAX_JWKS_TTL_MS,
    jwksRefetchIntervalMs: options.jwksRefetchIntervalMs ?? (Number(env.MCP_JWKS_REFETCH_INTERVAL_MS) || 10_000),
    algorithms: options.algorithms ??
      (env.MCP_JWT_ALGORITHMS?.split(',').map((a) => a.trim()) as ('RS256' | 'ES256')[] | undefined) ?? [
        ...AUTH_ALGORITHMS,
      ],
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
  checkBounds(base);
  return base;
}

function checkBounds(base: AuthSettings): void {
  // The interval is how long a real key rotation may wait behind strangers' unknown kids: a minute at most.
  const interval = base.jwksRefetchIntervalMs;
  if (!Number.isInteger(interval) || interval < 100 || interval > MAX_REFETCH_INTERVAL_MS)
    throw new Error('McpModule auth: jwksRefetchIntervalMs must be an integer from 100 ms to 60 s');
  if (base.clockSkewSec < 0 || base.clockSkewSec > MAX_SKEW_SEC)
    throw new Error(`McpModule auth: clockSkewSec must be 0-${MAX_SKEW_SEC}`);
  if (base.jwksCacheTtlMs <= 0 || base.jwksCacheTtlMs > MAX_JWKS_TTL_MS)
    throw new Error('McpModule auth: jwksCacheTtlMs must be at most 10 minutes');
  const bad = base.algorithms.filter((a) => !(AUTH_ALGORITHMS as readonly string[]).includes(a));
  if (bad.length || base.algorithms.length === 0)
    throw new Error(`McpModule auth: algorithms must be RS256 and/or ES256 (got ${base.algorithms.join(',')})`);
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
