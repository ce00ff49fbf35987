import { randomBytes } from 'node:crypto';
import { ClientCredentialsCredentials, TokenCredentialsDeps, TokenExchangeCredentials } from '@app/mcp/downstream';
import { ErrorCode } from '@app/mcp';
import type { McpKeyStore } from '@app/mcp/stores';
import { OidcIssuer, startOidcIssuer } from './support/oidc-issuer';
import { suiteRedis } from './support/replicas';
import { LOGGED, SEEN, bearer, call, failure, logger } from './support/credentials-checks';

/**
 * The downstream credentials against a real OpenID provider (oidc-provider 9 on loopback): the service's own token
 * (client credentials) and a token exchanged for the caller (RFC 8693), cached until expiry, asked for once under
 * concurrency and across two instances sharing Redis, an issuer that is down answered within the call's deadline,
 * and no token in any log line.
 */
const JIRA = 'https://jira.downstream.test';
const SHORT = 'https://short.downstream.test';
describe('downstream credentials against a real OpenID provider', () => {
  let idp: OidcIssuer;
  let deps: TokenCredentialsDeps;
  const clientCredentials = (audience = JIRA, d = deps) =>
    new ClientCredentialsCredentials(
      'jira',
      {
        type: 'client_credentials',
        issuer: idp.issuer,
        clientId: idp.clientId,
        clientSecret: idp.clientSecret,
        audience,
        scope: 'tickets:read',
      },
      d,
    );
  const tokenExchange = (d = deps, audience = JIRA) =>
    new TokenExchangeCredentials(
      'jira',
      {
        type: 'token_exchange',
        issuer: idp.issuer,
        clientId: idp.clientId,
        clientSecret: idp.clientSecret,
        audience,
        scope: 'tickets:read',
      },
      d,
    );
  const callerToken = async (sub: string) => {
    const token = await idp.subjects.mint({ sub, scope: 'desk:use' });
    SEEN.add(token);
    return token;
  };

  /** What `onAcquisition` was told (the module counts it as mcp_downstream_token_acquisitions_total). */
  const acquisitions: string[] = [];
  const counted =
    (into = acquisitions): TokenCredentialsDeps['onAcquisition'] =>
    (grant, outcome) =>
      void into.push(`${grant}:${outcome}`);

  beforeAll(async () => {
    idp = await startOidcIssuer({ ttlSeconds: (resource) => (resource === SHORT ? 3 : 300) });
    deps = { logger, onAcquisition: counted() };
    SEEN.add(idp.clientSecret);
  });
  beforeEach(() => {
    idp.mode = 'up';
    for (const grant of Object.keys(idp.tokenRequests)) delete idp.tokenRequests[grant];
    acquisitions.length = 0;
  });
  afterAll(async () => {
    await idp.stop();
    // The last word: across every test above, no log line carried a token or the client secret.
    const leaks = LOGGED.filter((line) => [...SEEN].some((secret) => line.includes(secret)));
    expect(leaks).toEqual([]);
  });

  describe('client credentials (RFC 6749 §4.4)', () => {
    it("50 concurrent calls ask the issuer once; the token is the service's own, for the downstream's audience", async () => {
      const credentials = clientCredentials();
      const tokens = await Promise.all(Array.from({ length: 50 }, () => credentials.headers(call()).then(bearer)));
      expect(new Set(tokens).size).toBe(1);
      expect(idp.tokenRequests).toEqual({ client_credentials: 1 });
      const claims = await idp.verify(tokens[0], JIRA);
      expect(claims).toMatchObject({ aud: JIRA, sub: idp.clientId, client_id: idp.clientId, scope: 'tickets:read' });
      // Later calls reuse it.
      expect(bearer(await credentials.headers(call()))).toBe(tokens[0]);
      expect(idp.tokenRequests).toEqual({ client_credentials: 1 });
      // One acquisition counted: the cache hits are none.
      expect(acquisitions).toEqual(['client_credentials:ok']);
      expect(LOGGED.some((l) => l.includes('client_credentials token obtained'))).toBe(true);
    });

    it('a token is reused until shortly before it expires, then refreshed once', async () => {
      const credentials = clientCredentials(SHORT);
      const first = bearer(await credentials.headers(call()));
      await new Promise((ok) => setTimeout(ok, 1500));
      expect(bearer(await credentials.headers(call()))).toBe(first);
      expect(idp.tokenRequests).toEqual({ client_credentials: 1 });
      // 3 s lifetime less its tenth: gone from the cache before it expires.
      await new Promise((ok) => setTimeout(ok, 1300));
      const again = await Promise.all(Array.from({ length: 20 }, () => credentials.headers(call()).then(bearer)));
      expect(new Set(again).size).toBe(1);
      expect(again[0]).not.toBe(first);
      expect(idp.tokenRequests).toEqual({ client_credentials: 2 });
      await expect(idp.verify(again[0], SHORT)).resolves.toMatchObject({ aud: SHORT });
    });

    it('invalidate() makes the next call fetch a fresh token', async () => {
      const credentials = clientCredentials();
      const first = bearer(await credentials.headers(call()));
      await credentials.invalidate();
      expect(bearer(await credentials.headers(call()))).not.toBe(first);
      expect(idp.tokenRequests).toEqual({ client_credentials: 2 });
    });

    it('a wrong client secret is refused by the issuer: exchange_refused, -32000, no secret in the message', async () => {
      const credentials = new ClientCredentialsCredentials(
        'jira',
        {
          type: 'client_credentials',
          issuer: idp.issuer,
          clientId: idp.clientId,
          clientSecret: 'not-the-secret-42',
          audience: JIRA,
        },
        deps,
      );
      const e = await failure(credentials.headers(call()));
      expect(e).toMatchObject({
        reason: 'exchange_refused',
        code: ErrorCode.ServerError,
        data: { oauthError: 'invalid_client' },
      });
      expect(e.message).not.toContain('not-the-secret-42');
    });
  });

  describe('token exchange (RFC 8693)', () => {
    it("the exchanged token has the downstream's audience, the caller's subject, the scopes and an act claim", async () => {
      const caller = await callerToken('alice');
      const token = bearer(await tokenExchange().headers(call({ subject: 'alice', callerToken: caller })));
      expect(token).not.toBe(caller);
      const claims = await idp.verify(token, JIRA);
      expect(claims).toMatchObject({ aud: JIRA, sub: 'alice', scope: 'tickets:read', act: { sub: idp.clientId } });
      // The caller's own token is not for the downstream: its verifier refuses it.
      await expect(idp.verify(caller, JIRA)).rejects.toThrow();
    });

    it('50 concurrent calls of one caller exchange once; another caller gets its own token', async () => {
      const credentials = tokenExchange();
      const alice = await callerToken('alice');
      const tokens = await Promise.all(
        Array.from({ length: 50 }, () =>
          credentials.headers(call({ subject: 'alice', callerToken: alice })).then(bearer),
        ),
      );
      expect(new Set(tokens).size).toBe(1);
      const bob = await callerToken('bob');
      const bobs = bearer(await credentials.headers(call({ subject: 'bob', callerToken: bob })));
      expect(bobs).not.toBe(tokens[0]);
      await expect(idp.verify(bobs, JIRA)).resolves.toMatchObject({ sub: 'bob' });
      expect(idp.tokenRequests).toEqual({ [TOKEN_EXCHANGE]: 2 });
      expect(acquisitions).toEqual(['token_exchange:ok', 'token_exchange:ok']);
    });

    it('no caller token: a clear no_caller_token error, and the issuer is not asked', async () => {
      const e = await failure(tokenExchange().headers(call()));
      expect(e).toMatchObject({ reason: 'no_caller_token', code: ErrorCode.Forbidden });
      expect(e.message).toMatch(/on behalf of the caller/);
      expect(idp.tokenRequests).toEqual({});
    });

    it('a subject token the issuer does not trust: exchange_refused (invalid_grant), the token not in the message', async () => {
      const forged = `${(await callerToken('mallory')).slice(0, -4)}AAAA`;
      SEEN.add(forged);
      const e = await failure(tokenExchange().headers(call({ subject: 'mallory', callerToken: forged })));
      expect(e).toMatchObject({ reason: 'exchange_refused', data: { oauthError: 'invalid_grant' } });
      expect(JSON.stringify({ message: e.message, data: e.data })).not.toContain(forged.slice(20, 60));
    });
  });

  describe('the issuer down', () => {
    it('never answering: issuer_unavailable (-32006) by the call deadline', async () => {
      const credentials = clientCredentials('https://hang.downstream.test');
      await credentials.headers(call()).catch(() => undefined); // discovery done while the issuer is up
      await credentials.invalidate();
      idp.mode = 'hang';
      const started = Date.now();
      const e = await failure(credentials.headers(call({}, 400)));
      expect(e).toMatchObject({ reason: 'issuer_unavailable', code: ErrorCode.UpstreamUnavailable });
      expect(Date.now() - started).toBeLessThan(1000);
    });

    it('answering 503: issuer_unavailable at once; not reachable for readiness until the issuer serves again', async () => {
      const credentials = tokenExchange();
      const probe = () => credentials.issuerReachable(AbortSignal.timeout(2_000));
      expect(await probe()).toBe(true);
      idp.mode = 'unavailable';
      const started = Date.now();
      const carol = await callerToken('carol');
      const e = await failure(credentials.headers(call({ subject: 'carol', callerToken: carol })));
      expect(e).toMatchObject({ reason: 'issuer_unavailable', code: ErrorCode.UpstreamUnavailable });
      expect(e.message).toMatch(/unavailable/);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(acquisitions).toEqual(['token_exchange:failed']);
      // The readiness check asks the token endpoint itself: a replica out of rotation gets no call to try again.
      expect(await probe()).toBe(false);
      idp.mode = 'up';
      expect(await probe()).toBe(true);
      await credentials.headers(call({ subject: 'carol', callerToken: carol }));
      expect(acquisitions).toEqual(['token_exchange:failed', 'token_exchange:ok']);
    });

    it('a token still cached keeps readiness up while the issuer is down; an issuer not listening: down', async () => {
      const credentials = tokenExchange();
      await credentials.headers(call({ subject: 'erin', callerToken: await callerToken('erin') }));
      idp.mode = 'unavailable';
      // Another caller's exchange fails, but erin's token is still usable: this replica still serves calls.
      await failure(credentials.headers(call({ subject: 'frank', callerToken: await callerToken('frank') })));
      expect(acquisitions).toEqual(['token_exchange:ok', 'token_exchange:failed']);
      expect(await credentials.issuerReachable(AbortSignal.timeout(2_000))).toBe(true);
      // An issuer that is not listening at all.
      const stopped = new ClientCredentialsCredentials(
        'jira',
        { type: 'client_credentials', issuer: 'http://127.0.0.1:9', clientId: 'x', clientSecret: 'y', audience: JIRA },
        deps,
      );
      await failure(stopped.headers(call({}, 2000)));
      expect(await stopped.issuerReachable(AbortSignal.timeout(2_000))).toBe(false);
    });

    it('not listening at all: issuer_unavailable at once', async () => {
      const credentials = new ClientCredentialsCredentials(
        'jira',
        { type: 'client_credentials', issuer: 'http://127.0.0.1:9', clientId: 'x', clientSecret: 'y', audience: JIRA },
        deps,
      );
      await expect(failure(credentials.headers(call({}, 2000)))).resolves.toMatchObject({
        reason: 'issuer_unavailable',
      });
    });
  });

  describe('two instances on one Redis (two replicas)', () => {
    const shared = suiteRedis();
    const sealKey = randomBytes(32);
    const keyStore: McpKeyStore = { sharedKey: () => Promise.resolve(sealKey) };
    const replica = (into = acquisitions): TokenCredentialsDeps => ({
      logger,
      redis: shared.redis,
      keyPrefix: shared.prefix,
      keyStore,
      onAcquisition: counted(into),
    });
    afterAll(() => shared.cleanup());

    it('client credentials: 2 x 25 concurrent calls ask the issuer once; the value in Redis is sealed', async () => {
      const [countedA, countedB]: string[][] = [[], []];
      const [a, b] = [clientCredentials(JIRA, replica(countedA)), clientCredentials(JIRA, replica(countedB))];
      const tokens = await Promise.all(
        Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).headers(call()).then(bearer)),
      );
      expect(new Set(tokens).size).toBe(1);
      expect(idp.tokenRequests).toEqual({ client_credentials: 1 });
      // Only the replica that asked the issuer counts the acquisition.
      expect([...countedA, ...countedB]).toEqual(['client_credentials:ok']);
      const keys = await shared.redis.keys(`${shared.prefix}downstream:{jira}:tok:*`);
      expect(keys).toHaveLength(1);
      const stored = (await shared.redis.get(keys[0]))!;
      expect(stored).not.toContain(tokens[0]);
      const ttl = await shared.redis.pttl(keys[0]);
      expect(ttl).toBeGreaterThan(200_000);
      expect(ttl).toBeLessThanOrEqual(300_000 - 30_000);
    });

    it('token exchange: two instances exchange once per caller, and an invalidated token is fetched anew by both', async () => {
      const [a, b] = [tokenExchange(replica()), tokenExchange(replica())];
      const dave = await callerToken('dave');
      const tokens = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? a : b).headers(call({ subject: 'dave', callerToken: dave })).then(bearer),
        ),
      );
      expect(new Set(tokens).size).toBe(1);
      expect(idp.tokenRequests).toEqual({ [TOKEN_EXCHANGE]: 1 });
      await a.invalidate(call({ subject: 'dave', callerToken: dave }));
      const fresh = bearer(await b.headers(call({ subject: 'dave', callerToken: dave })));
      expect(fresh).not.toBe(tokens[0]);
      expect(idp.tokenRequests).toEqual({ [TOKEN_EXCHANGE]: 2 });
    });
  });
});

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
