import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { passportJwtSecret } from 'jwks-rsa';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { MCP_AUTH_CONFIG } from './auth.constants';
import { ResolvedAuthConfig } from './auth-options.interface';
import { McpPrincipal, principalFromClaims } from './mcp-principal';

/**
 * passport-jwt with keys from the issuer's JWKS (jwks-rsa): cached for the configured TTL, and an
 * unknown `kid` triggers a rate-limited refresh, so key rotation needs no restart. `iss`, `aud`,
 * `exp`, `nbf` and the algorithm list are checked by jsonwebtoken.
 * @internal
 */
@Injectable()
export class McpJwtStrategy extends PassportStrategy(Strategy, 'mcp-jwt') {
  constructor(@Inject(MCP_AUTH_CONFIG) private readonly config: ResolvedAuthConfig) {
    const enabled = config.mode === 'jwt';
    const jwks =
      enabled && config.jwks
        ? passportJwtSecret({
            jwksUri: config.jwksUri,
            cache: true,
            cacheMaxAge: config.jwksCacheTtlMs,
            rateLimit: true,
            jwksRequestsPerMinute: 10,
            timeout: 5_000,
          })
        : undefined;
    // HS256 tokens get the shared development secret, everything else a JWKS key: an HS256 token
    // signed with a public key (algorithm confusion) is checked against the secret and fails.
    const keyFor = (req: unknown, rawJwt: string, done: (err: Error | null, key?: string) => void) => {
      const alg = headerAlg(rawJwt);
      if (alg === 'HS256' && config.hs256Secret) return done(null, config.hs256Secret);
      if (alg !== 'HS256' && jwks) return jwks(req as never, rawJwt, done as never);
      return done(new Error(`no key for algorithm ${String(alg).slice(0, 16)}`));
    };
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      secretOrKeyProvider: keyFor,
      issuer: enabled ? config.issuer : undefined,
      audience: enabled ? config.audience : undefined,
      algorithms: config.hs256Secret ? [...config.algorithms, 'HS256'] : config.algorithms,
      jsonWebTokenOptions: { clockTolerance: config.clockSkewSec },
      ignoreExpiration: false,
    });
  }

  /** `exp` and `sub` are required (Appendix A): jsonwebtoken alone would accept a token without them. */
  validate(claims: Record<string, unknown>): McpPrincipal | null {
    if (typeof claims.exp !== 'number' || typeof claims.sub !== 'string' || claims.sub === '') return null;
    return principalFromClaims(claims, this.config.dev !== undefined && claims.iss === this.config.issuer);
  }
}

function headerAlg(rawJwt: string): unknown {
  try {
    return (JSON.parse(Buffer.from(rawJwt.split('.')[0], 'base64url').toString('utf8')) as { alg?: unknown }).alg;
  } catch {
    return undefined;
  }
}
