import { readFileSync } from 'node:fs';
import { SignJWT, generateKeyPair, importJWK, type JWK } from 'jose';

/**
 * A signing key of the issuer the server trusts, with the issuer and audience its tokens carry: what the negative
 * token checks need. The file `--issuer-key` names has this shape (the local development issuer's
 * `.mcp-dev/issuer-key.json` does).
 */
export interface IssuerKey {
  privateJwk: JWK;
  issuer: string;
  audience: string;
}

type SigningKey = Parameters<SignJWT['sign']>[0];

/** Reads an issuer key file; a message (not an exception) for anything wrong, which the command turns into exit 2. */
export function readIssuerKey(path: string): IssuerKey | string {
  let parsed: Partial<IssuerKey>;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<IssuerKey>;
  } catch (error) {
    return `--issuer-key ${path}: ${(error as Error).message}`;
  }
  const jwk = parsed.privateJwk;
  if (typeof jwk !== 'object' || jwk === null || typeof jwk.kty !== 'string' || jwk.d === undefined)
    return `--issuer-key ${path}: no private JWK under "privateJwk"`;
  if (typeof parsed.issuer !== 'string' || typeof parsed.audience !== 'string')
    return `--issuer-key ${path}: "issuer" and "audience" (the values the server checks) are required`;
  return { privateJwk: jwk, issuer: parsed.issuer, audience: parsed.audience };
}

/** The tokens a server must refuse, each wrong in one way only, beside a control token it must accept. */
export interface NegativeTokens {
  control: string;
  wrong: { what: string; token: string }[];
}

/** Signs tokens with an issuer's key, good ones and the ones a server must refuse. */
export class TokenMint {
  private constructor(
    private readonly key: IssuerKey,
    private readonly signing: SigningKey,
    private readonly alg: string,
  ) {}

  static async of(key: IssuerKey): Promise<TokenMint> {
    const alg = key.privateJwk.alg ?? (key.privateJwk.kty === 'EC' ? 'ES256' : 'RS256');
    return new TokenMint(key, (await importJWK(key.privateJwk, alg)) as SigningKey, alg);
  }

  /** A token the server should accept: `sub` compliance-check, valid for `ttlSec`, with `scope`. */
  mint(o: { scope?: string; ttlSec?: number; aud?: string; iss?: string; signing?: SigningKey } = {}): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT(o.scope ? { scope: o.scope } : {})
      .setProtectedHeader({
        alg: this.alg,
        typ: 'JWT',
        ...(this.key.privateJwk.kid ? { kid: this.key.privateJwk.kid } : {}),
      })
      .setIssuer(o.iss ?? this.key.issuer)
      .setAudience(o.aud ?? this.key.audience)
      .setSubject('compliance-check')
      .setIssuedAt(now - (o.ttlSec !== undefined && o.ttlSec < 0 ? 3_600 : 0))
      .setExpirationTime(now + (o.ttlSec ?? 600))
      .sign(o.signing ?? this.signing);
  }

  /**
   * Expired an hour ago (past any clock skew), for another audience, from another issuer, and signed by a key the
   * issuer never published under the same `kid`; and a control token, so a refusal is known to be the defect's.
   */
  async negatives(): Promise<NegativeTokens> {
    const foreign = await generateKeyPair(this.alg, { extractable: false });
    return {
      control: await this.mint(),
      wrong: [
        { what: 'expired an hour ago', token: await this.mint({ ttlSec: -3_600 }) },
        { what: 'for another audience', token: await this.mint({ aud: `${this.key.audience}-other` }) },
        { what: 'from another issuer', token: await this.mint({ iss: 'https://issuer.invalid.example' }) },
        { what: 'signed by a foreign key (same kid)', token: await this.mint({ signing: foreign.privateKey }) },
      ],
    };
  }
}
