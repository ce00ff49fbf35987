import { RunningServer, startDeskHttp } from './support/server-process';
import { mcpPost } from './support/mcp-post';

const INIT = {
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'jwks', version: '1' } },
};
/** At most one JWKS refetch per interval for unknown kids: 1 s here (`MCP_JWKS_REFETCH_INTERVAL_MS`; default 10 s). */
const INTERVAL_MS = 1_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

/**
 * The issuer's key set under attack and outage (issue: random `kid`s from strangers spent the shared refetch
 * allowance, so a real rotation was refused for 50 s; during an issuer outage good tokens got 401 and were
 * discarded by their clients). Against the real loopback issuer and the built desk.
 */
describe('JWKS refetches and outages', () => {
  let server: RunningServer;
  const post = (token: string) => mcpPost(server.url, INIT, token);
  /** Sends the tokens 100 at a time (one client's worth of connections), returns the statuses. */
  const statuses = async (tokens: string[]): Promise<number[]> => {
    const out: number[] = [];
    for (let i = 0; i < tokens.length; i += 100)
      out.push(...(await Promise.all(tokens.slice(i, i + 100).map(async (t) => (await post(t)).status))));
    return out;
  };
  /**
   * Polls with `token` until it is accepted; when the first accepted request was sent (ms after the start), or
   * Infinity after `withinMs`. The send time, not the answer's arrival: under a flood the answer itself may queue.
   */
  const acceptedAfter = async (token: string, withinMs: number): Promise<number> => {
    const started = Date.now();
    while (Date.now() - started < withinMs) {
      const sent = Date.now();
      if ((await post(token)).status === 200) return sent - started;
      await sleep(100);
    }
    return Infinity;
  };

  beforeAll(async () => {
    server = await startDeskHttp({ MCP_JWKS_REFETCH_INTERVAL_MS: String(INTERVAL_MS) });
    // A first good token loads the key set.
    expect((await post(server.token!)).status).toBe(200);
  });
  afterAll(() => server.stop());

  it('never fetches keys for tokens whose claims fail, whatever their kid', async () => {
    const issuer = server.issuer!;
    await sleep(INTERVAL_MS + 100);
    const before = issuer.jwksFetches;
    const mint = (n: number, options: (i: number) => Parameters<typeof issuer.mint>[0]) =>
      Promise.all(Array.from({ length: n }, (_, i) => issuer.mint(options(i))));
    const strangers = [
      ...Array.from({ length: 50 }, (_, i) => `garbage.${b64({ kid: `g${i}` })}.x`),
      `${b64(null)}.${b64({})}.x`, // valid JSON, but no header: refused, not a 500
      ...(await mint(250, (i) => ({ kid: `other-iss-${i}`, alg: 'ES256', iss: 'https://evil.example' }))),
      ...(await mint(50, (i) => ({ kid: `other-aud-${i}`, alg: 'ES256', aud: 'mcp:other' }))),
      ...(await mint(50, (i) => ({ kid: `expired-${i}`, alg: 'ES256', expiresIn: -600 }))),
      ...(await mint(50, (i) => ({ kid: `no-sub-${i}`, alg: 'ES256', omit: ['sub'] }))),
    ];
    expect(await statuses(strangers)).toEqual(strangers.map(() => 401));
    expect(issuer.jwksFetches).toBe(before);
  });

  it('spends at most one fetch per interval on 500 forged kids, and accepts a real rotation within the interval', async () => {
    const issuer = server.issuer!;
    // Valid claims, each signed by a key the issuer never published.
    const forged = await Promise.all(
      Array.from({ length: 500 }, (_, i) => issuer.mint({ kid: `random-${i}`, alg: 'ES256' })),
    );
    await sleep(INTERVAL_MS + 100);
    const before = issuer.jwksFetches;
    const started = Date.now();
    expect(await statuses(forged)).toEqual(forged.map(() => 401));
    const intervals = (Date.now() - started) / INTERVAL_MS;
    expect(issuer.jwksFetches - before).toBeLessThanOrEqual(Math.floor(intervals) + 1);

    // A real rotation while the strangers keep going: the new key is accepted within one interval of its
    // publication (plus a poll), whoever spends the refetch.
    const rotated = await issuer.mint({ kid: 'rs-rotated' });
    expect((await post(rotated)).status).toBe(401); // not published yet
    let flooding = true;
    const flood = (async () => {
      for (let i = 0; flooding; i = (i + 50) % forged.length) await statuses(forged.slice(i, i + 50));
    })();
    const floodStart = Date.now();
    const fetchesBefore = issuer.jwksFetches;
    issuer.publish('rs-rotated');
    const took = await acceptedAfter(rotated, 5 * INTERVAL_MS).finally(() => (flooding = false));
    await flood;
    expect(took).toBeLessThanOrEqual(INTERVAL_MS + 1_000);
    const floodIntervals = (Date.now() - floodStart) / INTERVAL_MS;
    expect(issuer.jwksFetches - fetchesBefore).toBeLessThanOrEqual(Math.floor(floodIntervals) + 1);
  });

  it('answers 503 with Retry-After (not 401) when the issuer is down and no cached key fits; recovers by itself', async () => {
    const issuer = server.issuer!;
    const newKid = await issuer.mint({ kid: 'rs-during-outage', sub: 'carol' });
    issuer.publish('rs-during-outage');
    issuer.down = true;
    try {
      await sleep(INTERVAL_MS + 100);
      // A key fetched before the outage still verifies (a new token, so not a cached verdict).
      expect((await post(await issuer.mint({ sub: 'dave' }))).status).toBe(200);
      const refused = await post(newKid);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(refused.headers.get('www-authenticate')).toBeNull();
      expect(await refused.json()).toMatchObject({
        error: { code: -32006, data: { reason: 'key_source_unavailable', retryAfter: 5 } },
      });
      // Failed fetches are retried on a short backoff, not per request (strangers included).
      const fetches = issuer.jwksFetches;
      const forged = await issuer.mint({ kid: 'random-during-outage', alg: 'ES256' });
      for (let i = 0; i < 20; i++)
        expect([(await post(newKid)).status, (await post(forged)).status]).toEqual([503, 503]);
      expect(issuer.jwksFetches - fetches).toBeLessThanOrEqual(1);
    } finally {
      issuer.down = false;
    }
    // Back within the 2 s retry backoff (plus a poll), not after a whole minute's allowance.
    expect(await acceptedAfter(newKid, 5_000)).toBeLessThan(3_000);
  });
});
