import { sign, verify } from 'jsonwebtoken';
import { claimsRefusal } from './token-precheck';
import { UnknownKeyError } from './jwks-key.source';
import { tokenRefusalDescription } from './token-refusal.description';

const SECRET = 'a-test-secret-of-at-least-thirty-two-characters';
const CONFIG = {
  issuer: 'https://id.example',
  audience: 'mcp:orders',
  algorithms: ['HS256'],
  clockSkewSec: 0,
} as never;
const now = () => Math.floor(Date.now() / 1000);
const claims = { iss: 'https://id.example', aud: 'mcp:orders', sub: 'alice', exp: now() + 60 };

/** What jsonwebtoken reports for `token` checked as the strategy checks it. */
function verifyError(token: string): Error {
  try {
    verify(token, SECRET, { issuer: 'https://id.example', audience: 'mcp:orders', algorithms: ['HS256'] });
  } catch (e) {
    return e as Error;
  }
  throw new Error('verified');
}
const token = (over: Record<string, unknown>) => sign({ ...claims, ...over }, SECRET, { algorithm: 'HS256' });
const precheck = (over: Record<string, unknown>, omit?: string) => {
  const body = { ...claims, ...over } as Record<string, unknown>;
  if (omit) delete body[omit];
  return claimsRefusal(sign(body, SECRET, { algorithm: 'HS256' }), CONFIG);
};

describe('tokenRefusalDescription', () => {
  it.each([
    ['jsonwebtoken: another audience', verifyError(token({ aud: 'mcp:billing' })), 'another audience (aud)'],
    ['pre-check: another audience', precheck({ aud: 'mcp:billing' }), 'another audience (aud)'],
    ['jsonwebtoken: another issuer', verifyError(token({ iss: 'https://evil.example' })), 'another issuer (iss)'],
    ['pre-check: another issuer', precheck({ iss: 'https://evil.example' }), 'another issuer (iss)'],
    ['jsonwebtoken: expired', verifyError(token({ exp: now() - 120 })), 'has expired (exp)'],
    ['pre-check: expired', precheck({ exp: now() - 120 }), 'has expired (exp)'],
    ['jsonwebtoken: not yet valid', verifyError(token({ nbf: now() + 300 })), 'not valid yet (nbf)'],
    ['jsonwebtoken: tampered', verifyError(`${token({}).slice(0, -4)}AAAA`), 'signature does not verify'],
    ['jsonwebtoken: garbage', verifyError('not.a.jwt'), 'not a well-formed JWT'],
    ['pre-check: not a JWT', claimsRefusal('x.y.z', CONFIG), 'not a well-formed JWT'],
    ['pre-check: no subject', precheck({}, 'sub'), 'has no subject (sub)'],
    ['pre-check: no expiry', precheck({}, 'exp'), 'has no expiry (exp)'],
    ['an unknown kid', new UnknownKeyError('no key with kid "k9" in the JWKS'), 'key this server does not know (kid)'],
    ['an algorithm not allowed', new Error('no key for algorithm RS512'), 'algorithm this server does not accept'],
    ['a crit header', new Error('unsupported critical header parameter'), 'critical header parameter'],
  ])('%s: says which check failed', (_what, failure, says) => {
    expect(failure).toBeInstanceOf(Error);
    expect(tokenRefusalDescription(failure)).toContain(says);
  });

  it('never repeats the expected value a check names, and carries no quote for the challenge', () => {
    const failure = verifyError(token({ aud: 'mcp:billing' }));
    expect(failure.message).toContain('mcp:orders'); // jsonwebtoken names what it expected: the log keeps it
    const description = tokenRefusalDescription(failure);
    expect(description).not.toMatch(/mcp:orders|mcp:billing|"/);
  });

  it('anything else: a plain sentence', () => {
    expect(tokenRefusalDescription(undefined)).toBe('The access token is invalid');
    expect(tokenRefusalDescription(new Error('something new'))).toBe('The access token is invalid');
  });
});
