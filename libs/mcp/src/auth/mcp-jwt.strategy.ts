import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { MCP_AUTH_CONFIG } from './auth.constants';
import { ResolvedAuthConfig } from '../options/auth-options.interface';
import { McpPrincipal, principalFromClaims } from './mcp-principal';
import { JwksKeySource } from './jwks-key.source';
import { claimsRefusal } from './token-precheck';

/**
 * passport-jwt with keys from the issuer's JWKS ({@link JwksKeySource}): cached for the configured TTL, and an
 * unknown `kid` triggers at most one refetch per interval, so key rotation needs no restart. `iss`, `aud`,
 * `exp`, `nbf` and the algorithm list are checked by jsonwebtoken (and `iss`, `aud`, `exp`, `nbf`, `sub` once before
 * any key lookup).
 * @internal
 */
@Injectable()
export class McpJwtStrategy extends PassportStrategy(Strategy, 'mcp-jwt') {
  constructor(@Inject(MCP_AUTH_CONFIG) private readonly config: ResolvedAuthConfig) {
    const enabled = config.mode === 'jwt';
    const jwks =
      enabled && config.jwks
        ? new JwksKeySource(config.jwksUri, {
            ttlMs: config.jwksCacheTtlMs,
            refetchIntervalMs: config.jwksRefetchIntervalMs,
            retryAfterFailureMs: 2_000,
            timeoutMs: 5_000,
          })
        : undefined;
    // HS256 tokens get the shared development secret, everything else a JWKS key: an HS256 token
    // signed with a public key (algorithm confusion) is checked against the secret and fails. A token is checked
    // against the JWKS only when its claims would pass: a stranger's token never makes the server fetch keys.
    const keyFor = (req: unknown, rawJwt: string, done: (err: Error | null, key?: string) => void) => {
      // RFC 7515 §4.1.11: a token naming critical header parameters must be refused unless each is understood; this
      // server understands none, and jsonwebtoken does not check `crit` itself.
      if (header(rawJwt).crit !== undefined) return done(new Error('unsupported critical header parameter'));
      const alg = headerAlg(rawJwt);
      if (alg === 'HS256' && config.hs256Secret) return done(null, config.hs256Secret);
      if (alg === 'HS256' || !jwks) return done(new Error(`no key for algorithm ${String(alg).slice(0, 16)}`));
      const refusal = claimsRefusal(rawJwt, config);
      if (refusal) return done(refusal);
      const kid = headerKid(rawJwt);
      if (kid === undefined) return done(new Error('the token header has no usable kid'));
      jwks.keyFor(kid).then(
        (key) => done(null, key),
        (error: Error) => done(error),
      );
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

  /**
   * `exp` and `sub` are required (Appendix A): jsonwebtoken alone would accept a token without them. The error names
   * the missing claim, for the log and the 401's description (as the pre-check's do for JWKS tokens).
   */
  validate(claims: Record<string, unknown>): McpPrincipal {
    if (typeof claims.exp !== 'number') throw new Error('no expiry');
    if (typeof claims.sub !== 'string' || claims.sub === '') throw new Error('no subject');
    return principalFromClaims(claims, this.config.dev !== undefined && claims.iss === this.config.issuer);
  }
}

function header(rawJwt: string): { alg?: unknown; kid?: unknown; crit?: unknown } {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(rawJwt.split('.')[0], 'base64url').toString('utf8'));
    // `null` or a number is valid JSON but no header: reading `.alg` of it must not throw (a 500).
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
  } catch {
    return {};
  }
}

const headerAlg = (rawJwt: string): unknown => header(rawJwt).alg;

function headerKid(rawJwt: string): string | undefined {
  const kid = header(rawJwt).kid;
  return typeof kid === 'string' && kid.length > 0 && kid.length <= 256 ? kid : undefined;
}
