// The token side of the auth scenario: a JWKS issuer served in-process on loopback, its token, and a
// forged token (same header and claims, another key) for the auth check.
import { createServer } from 'node:http';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { AUTH_AUDIENCE, AUTH_ISSUER } from './settings.mjs';

const KID = 'bench-rs256';

/** One token (all scopes, 1 h) with the iss/aud the server expects, signed with `privateKey`. */
function signToken(privateKey, subject = 'bench-user') {
  return new SignJWT({ scope: '*' })
    .setProtectedHeader({ alg: 'RS256', kid: KID, typ: 'JWT' })
    .setIssuer(AUTH_ISSUER)
    .setAudience(AUTH_AUDIENCE)
    .setSubject(subject)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(privateKey);
}

/**
 * A real token issuer for the auth scenario: an RS256 key pair, its public half served as a JWKS on
 * an ephemeral loopback port, and one token (all scopes, 1 h) with the iss/aud the server expects.
 */
export async function startIssuer() {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: KID, alg: 'RS256', use: 'sig' }] });
  let fetches = 0;
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/jwks.json') {
      fetches++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(jwks);
    } else res.writeHead(404).end();
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const token = await signToken(privateKey);
  return {
    jwksUri: `http://127.0.0.1:${server.address().port}/jwks.json`,
    token,
    /** A token of another subject (the abuse scenario's callers each have their own budgets). */
    mint: (subject) => signToken(privateKey, subject),
    fetches: () => fetches,
    stop: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** Same header and claims as the issuer's token, signed by a key the JWKS does not hold. */
export async function forgeToken() {
  const { privateKey: otherKey } = await generateKeyPair('RS256');
  return signToken(otherKey);
}
