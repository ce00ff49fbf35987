import { ResolvedAuthConfig } from '../options/auth-options.interface';

/**
 * Why a JWT is refused from its claims alone (issuer, audience, expiry, not-before, subject, algorithm), or
 * undefined when they would pass. Decoded without a signature check: it only decides whether the token deserves a
 * key lookup, so garbage and other issuers' tokens never make the server fetch the JWKS. jsonwebtoken checks it all
 * again with the signature. An expired or not yet valid token keeps jsonwebtoken's error name (`TokenExpiredError`,
 * `NotBeforeError`).
 * @internal
 */
export function claimsRefusal(
  rawJwt: string,
  config: Pick<ResolvedAuthConfig, 'issuer' | 'audience' | 'algorithms' | 'clockSkewSec'>,
): Error | undefined {
  const [head, body] = rawJwt.split('.');
  let header: { alg?: unknown } | null;
  let claims: { iss?: unknown; aud?: unknown; exp?: unknown; nbf?: unknown; sub?: unknown } | null;
  try {
    header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as typeof header;
    claims = JSON.parse(Buffer.from(body ?? '', 'base64url').toString('utf8')) as typeof claims;
  } catch {
    return new Error('the token is not a JWT');
  }
  if (typeof header !== 'object' || header === null) return new Error('the token has no header');
  if (typeof claims !== 'object' || claims === null) return new Error('the token has no claims');
  if (!(config.algorithms as unknown[]).includes(header.alg)) return new Error('algorithm not allowed');
  if (claims.iss !== config.issuer) return new Error('issuer mismatch');
  const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!aud.includes(config.audience)) return new Error('audience mismatch');
  if (typeof claims.sub !== 'string' || claims.sub === '') return new Error('no subject');
  if (typeof claims.exp !== 'number') return new Error('no expiry');
  // The same arithmetic as jsonwebtoken (whole seconds, skew on both sides), so both always agree.
  const now = Math.floor(Date.now() / 1000);
  if (now >= claims.exp + config.clockSkewSec) return named('TokenExpiredError', 'jwt expired');
  if (claims.nbf !== undefined && (typeof claims.nbf !== 'number' || claims.nbf > now + config.clockSkewSec))
    return named('NotBeforeError', 'jwt not active');
  return undefined;
}

function named(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}
