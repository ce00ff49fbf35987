import { createServer, Server } from 'node:http';
import { SignJWT, exportJWK, generateKeyPair, type JWK } from 'jose';

type SigningKey = Parameters<SignJWT['sign']>[0];
interface Key {
  kid: string;
  alg: 'RS256' | 'ES256';
  privateKey: SigningKey;
  publicJwk: JWK;
}

/** Claims and header of a token minted by {@link McpTestIssuer.mint}. */
export interface McpTestTokenOptions {
  /** Space-separated scopes (default: the issuer's default scope). */
  scope?: string;
  /** `sub` (default `test-user`). */
  sub?: string;
  alg?: 'RS256' | 'ES256';
  /** A `kid` that is not published yet signs with a new key (see {@link McpTestIssuer.publish}). */
  kid?: string;
  iss?: string;
  aud?: string;
  /** Seconds from now (negative: already expired). Default 3600. */
  expiresIn?: number;
  /** Seconds from now for `nbf`. */
  notBefore?: number;
  /** Leave out `exp` / `sub` (the server requires both). */
  omit?: ('exp' | 'sub')[];
  /** Extra protected header parameters (e.g. `{ crit: ['x-ext'], 'x-ext': 1 }`); `alg`, `kid`, `typ` stay. */
  header?: Record<string, unknown>;
}

/** Options of {@link McpTestIssuer.start}. */
export interface McpTestIssuerOptions {
  issuer?: string;
  audience?: string;
  /** The scope of tokens minted without one (default: none). */
  scope?: string;
}

/**
 * A real JWKS issuer on loopback for tests: RS256 and ES256 keys generated with `jose`, the JWKS served over
 * HTTP (fetches counted), key rotation. Tokens are signed exactly as an identity provider would sign them, so
 * the server under test verifies them with its production guard, never a mocked verifier.
 *
 * @example
 * const issuer = await McpTestIssuer.start();
 * process.env = { ...process.env, ...issuer.env() };          // or startMcpTestServer() does it
 * const token = await issuer.mint({ scope: 'orders:read', sub: 'alice' });
 */
export class McpTestIssuer {
  /** How many times the JWKS was fetched (answered or not). */
  jwksFetches = 0;
  /**
   * An outage: while true the JWKS answers 503, as an identity provider being restarted would. Tokens can still be
   * minted.
   */
  down = false;
  /** The JWKS URL (`http://127.0.0.1:<port>/jwks.json`). */
  jwksUri = '';
  private keys: Key[] = [];
  private readonly pending = new Map<string, Key>();
  private server!: Server;

  private constructor(
    readonly issuer: string,
    readonly audience: string,
    private readonly defaultScope: string,
  ) {}

  /** Generates the keys and serves the JWKS on an ephemeral loopback port. */
  static async start(options: McpTestIssuerOptions = {}): Promise<McpTestIssuer> {
    const issuer = new McpTestIssuer(
      options.issuer ?? 'https://issuer.test.example',
      options.audience ?? 'mcp:test',
      options.scope ?? '',
    );
    issuer.keys = [await newKey('rs-1', 'RS256'), await newKey('es-1', 'ES256')];
    issuer.server = createServer((req, res) => {
      if (req.url !== '/jwks.json') return void res.writeHead(404).end();
      issuer.jwksFetches++;
      if (issuer.down) return void res.writeHead(503, { 'Content-Type': 'text/plain' }).end('down for maintenance');
      res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ keys: issuer.keys.map((k) => k.publicJwk) }));
    });
    await new Promise<void>((ok) => issuer.server.listen(0, '127.0.0.1', ok));
    issuer.jwksUri = `http://127.0.0.1:${(issuer.server.address() as { port: number }).port}/jwks.json`;
    return issuer;
  }

  /** The environment that makes an MCP app trust this issuer (`MCP_JWKS_URI`, `MCP_JWT_ISSUER`, `MCP_JWT_AUDIENCE`). */
  env(): Record<string, string> {
    return { MCP_JWKS_URI: this.jwksUri, MCP_JWT_ISSUER: this.issuer, MCP_JWT_AUDIENCE: this.audience };
  }

  /** A signed token; `kid` may name a key that is not published yet. */
  async mint(options: McpTestTokenOptions = {}): Promise<string> {
    const key = options.kid
      ? (this.keys.find((k) => k.kid === options.kid) ?? (await this.unpublished(options.kid, options.alg ?? 'RS256')))
      : this.keys.find((k) => k.alg === (options.alg ?? 'RS256'))!;
    const now = Math.floor(Date.now() / 1000);
    const scope = options.scope ?? this.defaultScope;
    const jwt = new SignJWT(scope ? { scope } : {})
      .setProtectedHeader({ ...options.header, alg: key.alg, kid: key.kid, typ: 'JWT' })
      .setIssuer(options.iss ?? this.issuer)
      .setAudience(options.aud ?? this.audience)
      .setIssuedAt(now);
    if (!options.omit?.includes('sub')) jwt.setSubject(options.sub ?? 'test-user');
    if (!options.omit?.includes('exp')) jwt.setExpirationTime(now + (options.expiresIn ?? 3600));
    if (options.notBefore !== undefined) jwt.setNotBefore(now + options.notBefore);
    // jose refuses to sign critical parameters it is not told about: declare the test's own as understood.
    const crit = Array.isArray(options.header?.crit) ? (options.header.crit as string[]) : [];
    return jwt.sign(key.privateKey, { crit: Object.fromEntries(crit.map((name) => [name, true])) });
  }

  /** Publishes a key that earlier tokens were minted with (key rotation). */
  publish(kid: string): void {
    const key = this.pending.get(kid);
    if (key) this.keys.push(key);
  }

  /** Stops serving the JWKS. */
  close(): Promise<void> {
    return new Promise((ok) => this.server.close(() => ok()));
  }

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
