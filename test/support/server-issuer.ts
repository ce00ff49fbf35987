import { SignJWT, createLocalJWKSet, exportJWK, generateKeyPair, jwtVerify, type JWK } from 'jose';

/** What `npm run compliance -- --issuer-key` reads: a private key and the issuer and audience its tokens carry. */
export interface IssuerKeyFile {
  privateJwk: JWK;
  issuer: string;
  audience: string;
}

/**
 * The token issuer of a hand-written test server (no JWKS endpoint: the server holds the public key): its key for
 * `--issuer-key`, a verifier taking options as `jwtVerify` does (so a test server can leave a check out on purpose),
 * and a token it accepts.
 */
export async function serverIssuer(name: string): Promise<{
  issuerKey: IssuerKeyFile;
  verify: (token: string, o?: { audience?: string; clockTolerance?: number }) => Promise<boolean>;
  token: () => Promise<string>;
}> {
  const kid = `${name}-1`;
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const issuerKey = {
    privateJwk: { ...(await exportJWK(privateKey)), kid, alg: 'RS256' },
    issuer: `https://issuer.${name}.example`,
    audience: `mcp:${name}`,
  };
  const jwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'RS256' }] });
  return {
    issuerKey,
    verify: (token, o = { audience: issuerKey.audience }) =>
      jwtVerify(token, jwks, { issuer: issuerKey.issuer, ...o }).then(
        () => true,
        () => false,
      ),
    token: () =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'RS256', kid })
        .setIssuer(issuerKey.issuer)
        .setAudience(issuerKey.audience)
        .setSubject('reviewer')
        .setExpirationTime('1h')
        .sign(privateKey),
  };
}
