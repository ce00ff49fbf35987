/**
 * What a refused token's 401 says (the body's message and the challenge's `error_description`): which check
 * failed, by the claim or part of the token it concerns, and nothing more. The checks' own messages stay in the
 * log: jsonwebtoken's name the expected audience or issuer (`jwt audience invalid. expected: …`), which would tell
 * a caller what to forge. Each description is a fixed sentence with no double quote (it goes inside the
 * challenge's quoted string).
 */

/** By the failure's name, then its message (ours from token-precheck, jsonwebtoken's, the JWKS key source's). */
const BY_NAME: Record<string, string> = {
  TokenExpiredError: 'The access token has expired (exp)',
  NotBeforeError: 'The access token is not valid yet (nbf)',
  UnknownKeyError: 'The access token is signed with a key this server does not know (kid)',
};
const BY_MESSAGE: [RegExp, string][] = [
  [/audience/i, 'The access token is for another audience (aud)'],
  [/issuer/i, 'The access token is from another issuer (iss)'],
  [/signature/i, 'The access token signature does not verify'],
  [/algorithm/i, 'The access token is signed with an algorithm this server does not accept (alg)'],
  [/\bkid\b/i, 'The access token is signed with a key this server does not know (kid)'],
  [/critical header/i, 'The access token has a critical header parameter this server does not understand (crit)'],
  [/no subject|subject invalid/i, 'The access token has no subject (sub)'],
  [/no expiry/i, 'The access token has no expiry (exp)'],
  [/not a JWT|malformed|no header|no claims|invalid token/i, 'The access token is not a well-formed JWT'],
];

/** The description of a refused token, from what passport or the pre-check reported (an Error, or nothing). */
export function tokenRefusalDescription(failure: unknown): string {
  if (!(failure instanceof Error)) return 'The access token is invalid';
  return (
    BY_NAME[failure.name] ??
    BY_MESSAGE.find(([test]) => test.test(failure.message))?.[1] ??
    'The access token is invalid'
  );
}

/** An introspected token the issuer says is no longer (or never was) active. */
export const INACTIVE_TOKEN_DESCRIPTION = 'The access token is not active (the issuer says so)';
