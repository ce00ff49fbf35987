import { createServer, Server } from 'node:http';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';

type SigningKey = Parameters<SignJWT['sign']>[0];

/** Where the development key lives (git-ignored); `npm run token` signs with the same key. */
export const DEV_KEY_FILE = resolve(process.cwd(), '.mcp-dev', 'issuer-key.json');

interface DevKeyFile {
  issuer: string;
  audience: string;
  privateJwk: JWK;
}

/**
 * A local development token issuer: an RS256 key pair kept in `.mcp-dev/issuer-key.json` and its
 * JWKS served on an ephemeral loopback port. Started only outside production when no issuer is
 * configured, so a newcomer can call a tool within a minute.
 * @internal
 */
export class DevIssuer {
  private constructor(
    readonly issuer: string,
    readonly audience: string,
    readonly jwksUri: string,
    readonly keyFile: string,
    private readonly key: SigningKey,
    private readonly kid: string,
    private readonly server: Server,
  ) {}

  static async start(service: string, keyFile = DEV_KEY_FILE): Promise<DevIssuer> {
    const stored = await loadOrCreateKey(service, keyFile);
    const privateKey = (await importJWK(stored.privateJwk, 'RS256')) as SigningKey;
    // The public half: the JWK without its private members.
    const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = stored.privateJwk;
    const jwks = JSON.stringify({ keys: [{ ...publicJwk, use: 'sig', alg: 'RS256' }] });
    const server = createServer((req, res) => {
      if (req.url === '/jwks.json') res.writeHead(200, { 'Content-Type': 'application/json' }).end(jwks);
      else res.writeHead(404).end();
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    server.unref();
    const { port } = server.address() as { port: number };
    return new DevIssuer(
      stored.issuer,
      stored.audience,
      `http://127.0.0.1:${port}/jwks.json`,
      keyFile,
      privateKey,
      stored.privateJwk.kid!,
      server,
    );
  }

  mint(scope: string, ttlSec = 8 * 3600): Promise<string> {
    return mintWith(this.key, this.kid, this.issuer, this.audience, scope, ttlSec);
  }

  /**
   * Records this app as the one `npm run token` mints for by default. Called once the app serves (not at start): an
   * app that fails to start, on a port already taken, must not turn the tokens minted for the running one away.
   */
  recordAsLastServed(): void {
    const stored = readKeyFile(this.keyFile);
    if (!stored?.privateJwk?.kid || stored.audience === this.audience) return;
    writeKeyFile(this.keyFile, { ...stored, audience: this.audience });
  }

  close(): void {
    this.server.close();
  }
}

/** Signs a development token (also used by `npm run token`). @internal */
export function mintWith(
  key: SigningKey,
  kid: string,
  issuer: string,
  audience: string,
  scope: string,
  ttlSec: number,
): Promise<string> {
  return new SignJWT({ scope })
    .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
    .setIssuer(issuer)
    .setAudience(audience)
    .setSubject('dev-user')
    .setIssuedAt()
    .setExpirationTime(`${ttlSec}s`)
    .setJti(randomUUID())
    .sign(key);
}

/**
 * One key for every app of the repository, so switching apps keeps earlier tokens valid for the app they name;
 * the file's `audience` names the app that last served ({@link DevIssuer.recordAsLastServed}; the first app when
 * the key is created), which `npm run token` mints for unless told `--app`.
 */
async function loadOrCreateKey(service: string, keyFile: string): Promise<DevKeyFile> {
  const audience = `mcp:${service}`;
  const existing = readKeyFile(keyFile);
  if (existing?.privateJwk?.kid) return { ...existing, audience };
  const stored: DevKeyFile = { issuer: 'urn:mcp:dev-issuer', audience, privateJwk: await newKey() };
  writeKeyFile(keyFile, stored);
  return stored;
}

function readKeyFile(keyFile: string): DevKeyFile | undefined {
  return existsSync(keyFile) ? (JSON.parse(readFileSync(keyFile, 'utf8')) as DevKeyFile) : undefined;
}

function writeKeyFile(keyFile: string, stored: DevKeyFile): void {
  try {
    mkdirSync(dirname(keyFile), { recursive: true });
    writeFileSync(keyFile, JSON.stringify(stored, null, 2), { mode: 0o600 });
  } catch {
    // A read-only working directory (a desktop agent starting stdio from /): the key lives in memory only.
  }
}

async function newKey(): Promise<DevKeyFile['privateJwk']> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: 'RS256' };
}
