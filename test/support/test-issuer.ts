import { createServer, Server } from 'node:http';
import { SignJWT, exportJWK, generateKeyPair, type JWK } from 'jose';

type SigningKey = Parameters<SignJWT['sign']>[0];
interface Key {
  kid: string;
  alg: 'RS256' | 'ES256';
  privateKey: SigningKey;
  publicJwk: JWK;
}

export interface MintOptions {
  scope?: string;
  sub?: string;
  alg?: 'RS256' | 'ES256';
  kid?: string;
  iss?: string;
  aud?: string;
  /** Seconds from now (negative: already expired). Default 3600. */
  expiresIn?: number;
  /** Seconds from now for `nbf`. */
  notBefore?: number;
  /** Leave out `exp` / `sub` (both are required by the server). */
  omit?: ('exp' | 'sub')[];
}

/**
 * A real JWKS issuer on loopback for the tests: RS256 and ES256 keys generated with `jose`, the JWKS
 * served over HTTP (counting fetches), and key rotation. Tokens are signed exactly as an IdP would.
 */
export class TestIssuer {
  readonly issuer = 'https://issuer.test.example';
  readonly audience = 'mcp:desk';
  jwksFetches = 0;
  private keys: Key[] = [];
  private server!: Server;
  jwksUri = '';

  static async start(): Promise<TestIssuer> {
    const issuer = new TestIssuer();
    issuer.keys = [await newKey('rs-1', 'RS256'), await newKey('es-1', 'ES256')];
    issuer.server = createServer((req, res) => {
      if (req.url !== '/jwks.json') return void res.writeHead(404).end();
      issuer.jwksFetches++;
      res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ keys: issuer.keys.map((k) => k.publicJwk) }));
    });
    await new Promise<void>((ok) => issuer.server.listen(0, '127.0.0.1', ok));
    issuer.jwksUri = `http://127.0.0.1:${(issuer.server.address() as { port: number }).port}/jwks.json`;
    return issuer;
  }

  /** Environment that points a server at this issuer. */
  env(): Record<string, string> {
    return { MCP_JWKS_URI: this.jwksUri, MCP_JWT_ISSUER: this.issuer, MCP_JWT_AUDIENCE: this.audience };
  }

  /** A signed token; `kid` may name a key that is not (yet) published. */
  async mint(o: MintOptions = {}): Promise<string> {
    const key = o.kid
      ? (this.keys.find((k) => k.kid === o.kid) ?? (await this.unpublished(o.kid, o.alg ?? 'RS256')))
      : this.keys.find((k) => k.alg === (o.alg ?? 'RS256'))!;
    const now = Math.floor(Date.now() / 1000);
    const jwt = new SignJWT({ scope: o.scope ?? 'tickets:read tickets:write' })
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' })
      .setIssuer(o.iss ?? this.issuer)
      .setAudience(o.aud ?? this.audience)
      .setIssuedAt(now);
    if (!o.omit?.includes('sub')) jwt.setSubject(o.sub ?? 'test-user');
    if (!o.omit?.includes('exp')) jwt.setExpirationTime(now + (o.expiresIn ?? 3600));
    if (o.notBefore !== undefined) jwt.setNotBefore(now + o.notBefore);
    return jwt.sign(key.privateKey);
  }

  /** Publishes a key minted with earlier (key rotation). */
  publish(kid: string): void {
    const key = this.pending.get(kid);
    if (key) this.keys.push(key);
  }

  close(): Promise<void> {
    return new Promise((ok) => this.server.close(() => ok()));
  }

  private readonly pending = new Map<string, Key>();
  private async unpublished(kid: string, alg: 'RS256' | 'ES256'): Promise<Key> {
    const existing = this.pending.get(kid);
    if (existing) return existing;
    const key = await newKey(kid, alg);
    this.pending.set(kid, key);
    return key;
  }
}

async function newKey(kid: string, alg: 'RS256' | 'ES256'): Promise<Key> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { kid, alg, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}
