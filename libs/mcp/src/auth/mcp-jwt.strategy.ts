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
  constructor(@Inject(MCP_AUTH_CONFIG) config: ResolvedAuthConfig) {
    const enabled = config.mode === 'jwt';
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      secretOrKeyProvider: enabled
        ? passportJwtSecret({
            jwksUri: config.jwksUri,
            cache: true,
            cacheMaxAge: config.jwksCacheTtlMs,
            rateLimit: true,
            jwksRequestsPerMinute: 10,
            timeout: 5_000,
          })
        : (_req: unknown, _token: unknown, done: (e: Error) => void) => done(new Error('authentication is disabled')),
      issuer: enabled ? config.issuer : undefined,
      audience: enabled ? config.audience : undefined,
      algorithms: config.algorithms,
      jsonWebTokenOptions: { clockTolerance: config.clockSkewSec },
      ignoreExpiration: false,
    });
  }

  validate(claims: Record<string, unknown>): McpPrincipal {
    return principalFromClaims(claims);
  }
}
