import { claimsRefusal } from './token-precheck';

const config = { issuer: 'https://iss', audience: 'mcp:x', algorithms: ['RS256' as const], clockSkewSec: 30 };
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const jwt = (claims: Record<string, unknown>, header: Record<string, unknown> = { alg: 'RS256', kid: 'k' }) =>
  `${b64(header)}.${b64(claims)}.sig`;
const good = { iss: 'https://iss', aud: 'mcp:x', sub: 'alice', exp: Math.floor(Date.now() / 1000) + 60 };

describe('claimsRefusal (before any key lookup)', () => {
  it('lets a token through whose claims would pass', () => {
    expect(claimsRefusal(jwt(good), config)).toBeUndefined();
    expect(claimsRefusal(jwt({ ...good, aud: ['other', 'mcp:x'] }), config)).toBeUndefined();
  });

  it.each([
    ['garbage', 'not-a-jwt', /not a JWT/],
    ['another issuer', jwt({ ...good, iss: 'https://evil' }), /issuer/],
    ['another audience', jwt({ ...good, aud: 'mcp:y' }), /audience/],
    ['no subject', jwt({ ...good, sub: '' }), /subject/],
    ['no expiry', jwt({ ...good, exp: undefined }), /expiry/],
    ['an algorithm not allowed', jwt(good, { alg: 'none' }), /algorithm/],
    ['a header that is not an object', `${b64(null)}.${b64(good)}.sig`, /no header/],
    ['claims that are not an object', `${b64({ alg: 'RS256' })}.${b64(42)}.sig`, /no claims/],
    ['a non-numeric nbf', jwt({ ...good, nbf: 'soon' }), /not active/],
  ])('refuses %s', (_, token, message) => {
    expect(claimsRefusal(token, config)?.message).toMatch(message);
  });

  it('reports an expired token as jsonwebtoken does, beyond the clock skew only', () => {
    const now = Math.floor(Date.now() / 1000);
    expect(claimsRefusal(jwt({ ...good, exp: now - 10 }), config)).toBeUndefined();
    expect(claimsRefusal(jwt({ ...good, exp: now - 60 }), config)?.name).toBe('TokenExpiredError');
  });

  it('reports a token not yet valid as jsonwebtoken does, beyond the clock skew only', () => {
    const now = Math.floor(Date.now() / 1000);
    expect(claimsRefusal(jwt({ ...good, nbf: now + 10 }), config)).toBeUndefined();
    expect(claimsRefusal(jwt({ ...good, nbf: now + 60 }), config)?.name).toBe('NotBeforeError');
  });
});
