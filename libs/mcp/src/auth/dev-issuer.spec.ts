import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSONWebKeySet, createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { DevIssuer } from './dev-issuer';

describe('DevIssuer', () => {
  let dir: string;
  const started: DevIssuer[] = [];
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'dev-issuer-'))));
  afterEach(async () => {
    started.splice(0).forEach((i) => i.close());
    rmSync(dir, { recursive: true, force: true });
  });
  const start = async (service: string) => {
    const issuer = await DevIssuer.start(service, join(dir, 'issuer-key.json'));
    started.push(issuer);
    return issuer;
  };

  it('keeps one key across apps: a token minted while one app ran stays valid for it after another started', async () => {
    const orders = await start('orders');
    const ordersToken = await orders.mint('*');
    const billing = await start('billing');
    expect(billing.audience).toBe('mcp:billing');
    expect(decodeProtectedHeader(await billing.mint('*')).kid).toBe(decodeProtectedHeader(ordersToken).kid);
    const again = await start('orders');
    const jwks = createLocalJWKSet((await (await fetch(again.jwksUri)).json()) as JSONWebKeySet);
    const { payload } = await jwtVerify(ordersToken, jwks, { audience: 'mcp:orders', issuer: again.issuer });
    expect(payload.sub).toBe('dev-user');
  });

  it('names in its file the app that last served (what `npm run token` mints for), not one that only started', async () => {
    const recorded = () => JSON.parse(readFileSync(join(dir, 'issuer-key.json'), 'utf8')).audience as string;
    const orders = await start('orders');
    expect(recorded()).toBe('mcp:orders'); // the first app, when the key is created
    orders.recordAsLastServed();
    // Another app starting (and failing to listen, say on a port already taken) leaves the running app's tokens alone.
    const billing = await start('billing');
    expect(recorded()).toBe('mcp:orders');
    billing.recordAsLastServed();
    expect(recorded()).toBe('mcp:billing');
    expect(JSON.parse(readFileSync(join(dir, 'issuer-key.json'), 'utf8')).privateJwk.kid).toBe(
      decodeProtectedHeader(await orders.mint('*')).kid,
    );
  });
});
