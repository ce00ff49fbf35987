import { RunningServer, startDeskHttp } from './support/server-process';
import { mcpPost } from './support/mcp-post';

const INIT = {
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'jwks', version: '1' } },
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The issuer's key set under attack and outage (issue: random `kid`s from strangers spent the shared refetch
 * allowance, so a real rotation was refused for 50 s; during an issuer outage good tokens got 401 and were
 * discarded by their clients). Against the real loopback issuer, with unknown kids refetched at most once a second
 * (`MCP_JWKS_REFETCH_INTERVAL_MS=1000`; 10 s by default).
 */
describe('JWKS refetches and outages', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startDeskHttp({ MCP_JWKS_REFETCH_INTERVAL_MS: '1000' });
    // A first good token loads the key set.
    expect((await mcpPost(server.url, INIT, server.token)).status).toBe(200);
  });
  afterAll(() => server.stop());

  it('never fetches keys for tokens whose claims fail, and fetches at most once a second for unknown kids', async () => {
    const issuer = server.issuer!;
    await sleep(1_100);
    const before = issuer.jwksFetches;
    const strangers = [
      ...Array.from({ length: 50 }, (_, i) => `garbage.${Buffer.from(`{"kid":"g${i}"}`).toString('base64url')}.x`),
      ...(await Promise.all(
        Array.from({ length: 50 }, (_, i) => issuer.mint({ kid: `other-iss-${i}`, alg: 'ES256', iss: 'https://evil' })),
      )),
      ...(await Promise.all(
        Array.from({ length: 50 }, (_, i) => issuer.mint({ kid: `expired-${i}`, alg: 'ES256', expiresIn: -600 })),
      )),
    ];
    const claimsRefused = await Promise.all(strangers.map((t) => mcpPost(server.url, INIT, t)));
    expect(claimsRefused.map((r) => r.status)).toEqual(strangers.map(() => 401));
    expect(issuer.jwksFetches).toBe(before);

    // Valid claims, signed by keys the issuer never published: each burst costs one fetch at most.
    const forged = await Promise.all(
      Array.from({ length: 150 }, (_, i) => issuer.mint({ kid: `random-${i}`, alg: 'ES256' })),
    );
    const started = Date.now();
    const answers = await Promise.all(forged.map((t) => mcpPost(server.url, INIT, t)));
    expect(answers.map((r) => r.status)).toEqual(forged.map(() => 401));
    const seconds = (Date.now() - started) / 1000;
    expect(issuer.jwksFetches - before).toBeLessThanOrEqual(Math.ceil(seconds) + 1);

    // A real rotation right after the flood: the new key is fetched within the interval and accepted.
    const rotated = await issuer.mint({ kid: 'rs-rotated' });
    issuer.publish('rs-rotated');
    await sleep(1_100);
    expect((await mcpPost(server.url, INIT, rotated)).status).toBe(200);
  });

  it('answers 503 with Retry-After (not 401) when the issuer is down and no cached key fits; recovers by itself', async () => {
    const issuer = server.issuer!;
    const newKid = await issuer.mint({ kid: 'rs-during-outage', sub: 'carol' });
    issuer.publish('rs-during-outage');
    issuer.down = true;
    try {
      await sleep(1_100);
      // A key fetched before the outage still verifies.
      expect((await mcpPost(server.url, INIT, await issuer.mint({ sub: 'dave' }))).status).toBe(200);
      const refused = await mcpPost(server.url, INIT, newKid);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(refused.headers.get('www-authenticate')).toBeNull();
      expect(await refused.json()).toMatchObject({
        error: { code: -32006, data: { reason: 'key_source_unavailable', retryAfter: 5 } },
      });
      // Failed fetches are retried on a short backoff, not on every request.
      const fetches = issuer.jwksFetches;
      for (let i = 0; i < 20; i++) expect((await mcpPost(server.url, INIT, newKid)).status).toBe(503);
      expect(issuer.jwksFetches - fetches).toBeLessThanOrEqual(1);
    } finally {
      issuer.down = false;
    }
    const back = Date.now();
    let status = 0;
    while (Date.now() - back < 5_000 && status !== 200) {
      status = (await mcpPost(server.url, INIT, newKid)).status;
      if (status !== 200) await sleep(200);
    }
    expect(status).toBe(200);
    expect(Date.now() - back).toBeLessThan(3_000);
  });
});
