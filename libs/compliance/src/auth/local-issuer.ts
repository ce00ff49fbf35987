import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import { IssuerKey } from './token-mint';

/**
 * The issuer `npm run compliance -- <app>` starts for the app it checks: one RS256 key published as a JWKS on a
 * loopback port, as a corporate issuer would publish it, so the app runs with its production token checks.
 */
export class LocalIssuer {
  private constructor(
    private readonly server: Server,
    readonly key: IssuerKey,
    readonly jwksUri: string,
  ) {}

  static async start(audience: string): Promise<LocalIssuer> {
    const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
    const kid = 'compliance-1';
    const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
    const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256' };
    const jwks = JSON.stringify({ keys: [publicJwk] });
    const server = createServer((req, res) =>
      req.url === '/jwks.json'
        ? res.writeHead(200, { 'content-type': 'application/json' }).end(jwks)
        : res.writeHead(404).end(),
    );
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const { port } = server.address() as AddressInfo;
    const key = { privateJwk, issuer: `http://127.0.0.1:${port}`, audience };
    return new LocalIssuer(server, key, `http://127.0.0.1:${port}/jwks.json`);
  }

  /** What makes a platform app trust this issuer. */
  env(): Record<string, string> {
    return { MCP_JWKS_URI: this.jwksUri, MCP_JWT_ISSUER: this.key.issuer, MCP_JWT_AUDIENCE: this.key.audience };
  }

  close(): Promise<void> {
    return new Promise((ok) => this.server.close(() => ok()));
  }
}
