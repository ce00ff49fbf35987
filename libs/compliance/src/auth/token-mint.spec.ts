import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import { LocalIssuer } from './local-issuer';
import { TokenMint, readIssuerKey } from './token-mint';

describe('TokenMint and LocalIssuer', () => {
  let issuer: LocalIssuer;
  beforeAll(async () => (issuer = await LocalIssuer.start('mcp:orders')));
  afterAll(() => issuer.close());

  it('mints a token the issuer’s JWKS verifies, and four that each break one check', async () => {
    const jwks = createLocalJWKSet((await (await fetch(issuer.jwksUri)).json()) as { keys: never[] });
    const verify = (token: string) =>
      jwtVerify(token, jwks, { issuer: issuer.key.issuer, audience: 'mcp:orders' }).then(
        () => 'ok',
        (e: Error) => e.constructor.name,
      );
    const mint = await TokenMint.of(issuer.key);
    const { control, wrong } = await mint.negatives();
    expect(await verify(control)).toBe('ok');
    expect(Object.fromEntries(await Promise.all(wrong.map(async (w) => [w.what, await verify(w.token)])))).toEqual({
      'expired an hour ago': 'JWTExpired',
      'for another audience': 'JWTClaimValidationFailed',
      'from another issuer': 'JWTClaimValidationFailed',
      'signed by a foreign key (same kid)': 'JWSSignatureVerificationFailed',
    });
    expect(decodeJwt(await mint.mint({ scope: 'orders:read' }))).toMatchObject({ scope: 'orders:read' });
  });

  it('reads an issuer key file, and says what is wrong with a bad one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'issuer-key-'));
    try {
      const file = (name: string, body: unknown) => {
        writeFileSync(join(dir, name), typeof body === 'string' ? body : JSON.stringify(body));
        return join(dir, name);
      };
      expect(readIssuerKey(file('good.json', issuer.key))).toEqual(issuer.key);
      expect(readIssuerKey(file('text.json', 'not json'))).toMatch(/--issuer-key .*text\.json: /);
      expect(
        readIssuerKey(file('public.json', { ...issuer.key, privateJwk: { kty: 'RSA', n: 'x', e: 'AQAB' } })),
      ).toMatch(/no private JWK/);
      expect(readIssuerKey(file('bare.json', { privateJwk: issuer.key.privateJwk }))).toMatch(
        /"issuer" and "audience"/,
      );
      expect(readIssuerKey(join(dir, 'absent.json'))).toMatch(/ENOENT/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
