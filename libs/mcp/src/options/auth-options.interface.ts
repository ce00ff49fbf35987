/**
 * How the HTTP transports authenticate callers (corporate standard §7 and Appendix A, see docs/compliance.md#s7
 * and docs/compliance.md#appendix-a). Environment variables fill what is not given here: `MCP_JWKS_URI`,
 * `MCP_JWT_ISSUER`, `MCP_JWT_AUDIENCE`, `MCP_JWT_ALGORITHMS`, `MCP_AUTH_DISABLED`.
 */
export interface McpAuthOptions {
  /** JWKS endpoint of the corporate issuer. */
  jwksUri?: string;
  /** Expected `iss`. */
  issuer?: string;
  /** Expected `aud` (this server's identifier). */
  audience?: string;
  /** Accepted signing algorithms. Default `['RS256', 'ES256']`. */
  algorithms?: ('RS256' | 'ES256')[];
  /** Allowed clock skew in seconds, at most 60. Default 30. */
  clockSkewSec?: number;
  /** How long JWKS keys (and verified tokens) are trusted, at most 10 minutes. Default 10 minutes. */
  jwksCacheTtlMs?: number;
  /**
   * At most one JWKS refetch for unknown `kid`s per interval (only for tokens whose issuer, audience, expiry and
   * subject pass): a rotated key is accepted within one interval. Default 10 s, at most 60 s. Env
   * `MCP_JWKS_REFETCH_INTERVAL_MS`.
   */
  jwksRefetchIntervalMs?: number;
  /** Authorization servers named in the protected resource metadata (RFC 9728). Default: the issuer. */
  authorizationServers?: string[];
  /** This server's public URL, used in `resource_metadata` and the metadata's `resource`. Default: from the request. */
  resourceUrl?: string;
  /**
   * Switches authentication off. For test fixtures only: refused when `NODE_ENV=production`.
   * Also `MCP_AUTH_DISABLED=true`.
   */
  disabled?: boolean;
  /** Outside production with no issuer configured, start a local development issuer. Default true. */
  devIssuer?: boolean;
  /**
   * Opaque (non-JWT) bearer tokens checked by RFC 7662 introspection (standard A.3, MAY). Also
   * `MCP_INTROSPECTION_URL`, `MCP_INTROSPECTION_CLIENT_ID`, `MCP_INTROSPECTION_CLIENT_SECRET`.
   */
  introspection?: { url: string; clientId: string; clientSecret: string; cacheTtlMs?: number };
  /**
   * A shared HS256 secret for local development only (Appendix A.1); refused when
   * `NODE_ENV=production`. Also `MCP_JWT_HS256_SECRET`.
   */
  hs256Secret?: string;
  /** Let callers without a token initialize, ping and list (not call). Default false. */
  anonymousListing?: boolean;
}

/** @internal Auth configuration as the guard uses it. */
export interface ResolvedAuthConfig {
  mode: 'jwt' | 'disabled';
  /** `jwt` with no JWKS: every token goes to introspection. */
  jwks: boolean;
  jwksUri: string;
  issuer: string;
  audience: string;
  algorithms: ('RS256' | 'ES256')[];
  clockSkewSec: number;
  jwksCacheTtlMs: number;
  jwksRefetchIntervalMs: number;
  authorizationServers: string[];
  resourceUrl?: string;
  introspection?: { url: string; clientId: string; clientSecret: string; cacheTtlMs: number };
  hs256Secret?: string;
  anonymousListing: boolean;
  /** Set when the local development issuer is in use; `served` once the app listens (see DevIssuer). */
  dev?: { mint(scope: string, ttlSec?: number): Promise<string>; keyFile: string; served(): void; close(): void };
}
