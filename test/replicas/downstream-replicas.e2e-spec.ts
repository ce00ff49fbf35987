import { RunningServer } from '../support/server-process';
import { startReplicas, stopReplicas, suiteRedis } from '../support/replicas';
import { OidcIssuer, startOidcIssuer } from '../support/oidc-issuer';
import { startTokenDownstream } from '../support/token-downstream';
import { messagesOf, modernPost } from '../support/modern-post';
import { FINAL, WITH_TASKS } from '../support/task-replicas';
import { sleep, waitFor } from '../support/wait';

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
// Written out rather than imported from the fixture: the replicas must ask for what the desk declares.
const AUDIENCES = {
  records: 'https://records.downstream.test',
  notes: 'https://notes.downstream.test',
  ledger: 'https://ledger.downstream.test',
};
/** `notes` tokens live 6 s (used for 5.4 s): long enough for one round of calls, short enough to see a refresh. */
const NOTES_TTL_SECONDS = 6;
const CALLERS = ['alice', 'bob', 'carol', 'dave', 'erin'];

type Service = keyof typeof AUDIENCES | 'outage';

/**
 * Downstream credentials across three desk replicas on one Redis (docs/downstream.md): a real OpenID provider
 * (client credentials and a registered token exchange), a real downstream that verifies every bearer it receives
 * against the provider's keys, and callers whose MCP tokens the provider accepts as subject tokens. Fifty concurrent
 * tool calls spread over the replicas reach the downstream with exchanged tokens only (audience, subject, scopes),
 * the issuer asked once per caller and audience per token lifetime across the deployment (once for the service's own
 * token); an issuer that is down gives a clean -32006; each replica's circuit breaker opens on its own failures; a
 * task's run is refused a token exchange and gets client credentials. No replica ever logs a token or a secret.
 */
describe('downstream token exchange across three replicas on Redis', () => {
  const { prefix, redis, cleanup } = suiteRedis();
  let idp: OidcIssuer;
  let downstream: Awaited<ReturnType<typeof startTokenDownstream>>;
  let replicas: RunningServer[] = [];
  const callerTokens: Record<string, string> = {};

  beforeAll(async () => {
    idp = await startOidcIssuer({ ttlSeconds: (r) => (r === AUDIENCES.notes ? NOTES_TTL_SECONDS : 300) });
    downstream = await startTokenDownstream({
      audiences: { records: AUDIENCES.records, notes: AUDIENCES.notes, ledger: AUDIENCES.ledger },
      verify: (token, audience) => idp.verify(token, audience),
      unavailable: ['outage'],
    });
    for (const sub of CALLERS) callerTokens[sub] = await idp.subjects.mint({ sub, scope: 'tickets:read' });
    replicas = await startReplicas(3, {
      ...idp.subjects.env(),
      MCP_STORE: 'redis',
      MCP_REDIS_PREFIX: prefix,
      DESK_DOWNSTREAM_URL: downstream.url,
      DESK_DOWNSTREAM_ISSUER: idp.issuer,
      DESK_DOWNSTREAM_CLIENT_ID: idp.clientId,
      DESK_DOWNSTREAM_CLIENT_SECRET: idp.clientSecret,
    });
  }, 120_000);
  /** Every token the downstream received and every grant the issuer answered, across the tests. */
  const issued = new Set<string>();
  const asked: Record<string, number> = {};
  const keepAndForgetSeen = () => {
    for (const s of downstream.seen) if (s.token) issued.add(s.token);
    downstream.seen.length = 0;
  };
  beforeEach(() => {
    idp.mode = 'up';
    for (const grant of Object.keys(idp.tokenRequests)) delete idp.tokenRequests[grant];
  });
  afterEach(() => {
    keepAndForgetSeen();
    for (const [grant, n] of Object.entries(idp.tokenRequests)) asked[grant] = (asked[grant] ?? 0) + n;
  });
  afterAll(async () => {
    await stopReplicas(replicas);
    await downstream?.close();
    await idp?.stop();
    await cleanup();
  });

  /** One 2026-07-28 `tools/call` of `downstream_whoami` on replica `i % 3` as `caller`. */
  async function whoami(i: number, caller: string, service: Service, meta?: Record<string, unknown>) {
    const res = await modernPost(
      replicas[i % replicas.length].url,
      'tools/call',
      { name: 'downstream_whoami', arguments: { service } },
      { token: callerTokens[caller], ...(meta ? { meta } : {}) },
    );
    const [message] = await messagesOf(res);
    return { status: res.status, ...message } as { status: number; result?: any; error?: any };
  }

  /** 50 concurrent calls of `service`: call i as caller i % 5 on replica i % 3 (every caller on every replica). */
  const fifty = (service: Service) =>
    Promise.all(Array.from({ length: 50 }, (_, i) => whoami(i, CALLERS[i % CALLERS.length], service)));

  /** What the downstream saw, per bearer token: the tokens each subject's requests carried. */
  const tokensBySubject = () => {
    const by = new Map<string, Set<string>>();
    for (const s of downstream.seen)
      by.set(String(s.claims?.sub), (by.get(String(s.claims?.sub)) ?? new Set()).add(s.token!));
    return by;
  };

  /** No request the downstream received carried a caller's own MCP token, in any header or in the URL. */
  const noCallerTokenDownstream = () => {
    const received = downstream.seen.map((s) => JSON.stringify([s.url, s.headers]));
    for (const token of Object.values(callerTokens)) expect(received.filter((r) => r.includes(token))).toEqual([]);
  };

  it('50 concurrent calls by 5 callers over 3 replicas: exchanged tokens only, one exchange per caller', async () => {
    const answers = await fifty('records');
    answers.forEach((a, i) =>
      expect(a.result?.structuredContent).toEqual({
        sub: CALLERS[i % CALLERS.length],
        aud: AUDIENCES.records,
        scope: 'tickets:read',
        act: { sub: idp.clientId },
      }),
    );
    // Every request was verified by the downstream for its audience, and carried its caller's one exchanged token.
    expect(downstream.seen).toHaveLength(50);
    expect(downstream.seen.every((s) => s.claims?.aud === AUDIENCES.records)).toBe(true);
    const by = tokensBySubject();
    expect([...by.keys()].sort()).toEqual([...CALLERS].sort());
    for (const tokens of by.values()) expect(tokens.size).toBe(1);
    noCallerTokenDownstream();
    // The issuer was asked once per caller for the whole deployment, not once per replica.
    expect(idp.tokenRequests).toEqual({ [TOKEN_EXCHANGE]: CALLERS.length });
    // A second round reuses the tokens from Redis, on whichever replica.
    await fifty('records');
    expect(idp.tokenRequests).toEqual({ [TOKEN_EXCHANGE]: CALLERS.length });
    for (const tokens of tokensBySubject().values()) expect(tokens.size).toBe(1);
  }, 60_000);

  it('client credentials: 50 concurrent calls by 5 callers ask the issuer once for the whole deployment', async () => {
    const answers = await fifty('ledger');
    for (const a of answers)
      expect(a.result?.structuredContent).toEqual({ sub: idp.clientId, aud: AUDIENCES.ledger, scope: 'tickets:read' });
    expect(new Set(downstream.seen.map((s) => s.token)).size).toBe(1);
    expect(downstream.seen.every((s) => s.claims?.aud === AUDIENCES.ledger)).toBe(true);
    noCallerTokenDownstream();
    expect(idp.tokenRequests).toEqual({ client_credentials: 1 });
  }, 60_000);

  it('a short-lived exchanged token: asked once per caller per lifetime, once more after it expires', async () => {
    const round = () => Promise.all(Array.from({ length: 15 }, (_, i) => whoami(i, CALLERS[i % 3], 'notes')));
    for (const a of await round()) expect(a.result?.structuredContent).toMatchObject({ aud: AUDIENCES.notes });
    expect(idp.tokenRequests).toEqual({ [TOKEN_EXCHANGE]: 3 });
    const first = tokensBySubject();
    // The shared cache drops a token when it stops being usable (a tenth of its life before it expires).
    const cached = () => redis.keys(`${prefix}downstream:{notes}:tok:*`);
    expect(await cached()).toHaveLength(3);
    for (const deadline = Date.now() + NOTES_TTL_SECONDS * 1000; (await cached()).length > 0; await sleep(100))
      if (Date.now() > deadline) throw new Error('the notes tokens were still cached after their lifetime');
    keepAndForgetSeen();
    for (const a of await round()) expect(a.result?.structuredContent).toMatchObject({ aud: AUDIENCES.notes });
    expect(idp.tokenRequests).toEqual({ [TOKEN_EXCHANGE]: 6 });
    for (const [sub, tokens] of tokensBySubject()) {
      expect(tokens.size).toBe(1);
      expect(first.get(sub)!.has([...tokens][0])).toBe(false);
    }
    noCallerTokenDownstream();
  }, 60_000);

  it('the issuer down during a call: a clean -32006 answer on every replica, no stack, path or token in it', async () => {
    idp.mode = 'unavailable';
    // erin has no `notes` token cached (the test above used three callers): the call must ask the issuer.
    const answers = await Promise.all(replicas.map((_, i) => whoami(i, 'erin', 'notes')));
    for (const a of answers) {
      // A protocol error a client program acts on (retry later), as the corporate table gives -32006.
      expect(a).toMatchObject({
        status: 503,
        error: {
          code: -32006,
          message: expect.stringMatching(/^The downstream service's token issuer is unavailable/),
          data: { reason: 'issuer_unavailable' },
        },
      });
      const text = JSON.stringify(a);
      expect(text).not.toMatch(/\n\s+at |\/work\/|dist\/|node_modules|Bearer|eyJ/);
      expect(text).not.toContain(idp.clientSecret);
      // The internal service's name is not part of the public contract (docs/downstream.md).
      expect(text).not.toMatch(/"notes"|downstream:/);
    }
    // Nothing reached the downstream without a token.
    expect(downstream.seen).toEqual([]);
    // The issuer back: the next call is exchanged and served.
    idp.mode = 'up';
    expect((await whoami(1, 'erin', 'notes')).result?.structuredContent).toMatchObject({ sub: 'erin' });
  }, 30_000);

  it("the circuit breaker is per replica: one replica's open breaker does not stop the others' requests", async () => {
    const reached = () => downstream.seen.filter((s) => s.path === '/outage/whoami').length;
    const text = (a: { result?: any }) => JSON.stringify(a.result?.content);
    // Replica 0: two failures (503, no retries) open its breaker; its next call is refused before reaching the service.
    for (let n = 0; n < 2; n++) {
      const failed = await whoami(0, 'alice', 'outage');
      expect(failed.result).toMatchObject({ isError: true });
      expect(text(failed)).toMatch(/down for maintenance/);
    }
    const refused = await whoami(0, 'alice', 'outage');
    expect(refused.result).toMatchObject({ isError: true });
    expect(text(refused)).toMatch(/given time to recover/);
    expect(reached()).toBe(2);
    // Replicas 1 and 2 counted none of those failures: their calls still reach the service.
    for (const i of [1, 2]) expect(text(await whoami(i, 'bob', 'outage'))).toMatch(/down for maintenance/);
    expect(reached()).toBe(4);
  }, 30_000);

  it("a task's run: a token exchange is refused with a clear error; client credentials work", async () => {
    const runTask = async (service: Service) => {
      const created = await whoami(0, 'alice', service, WITH_TASKS);
      expect(created.result).toMatchObject({ resultType: 'task', taskId: expect.any(String) });
      for (let n = 1; ; n++) {
        const res = await modernPost(
          replicas[n % 3].url,
          'tasks/get',
          { taskId: created.result.taskId },
          { token: callerTokens.alice, meta: WITH_TASKS },
        );
        const [{ result }] = await messagesOf(res);
        if (FINAL.includes(result?.status)) return result;
        if (n > 150) throw new Error(`task not final: ${JSON.stringify(result)}`);
        await sleep(100);
      }
    };
    const exchanged = await runTask('records');
    expect(exchanged).toMatchObject({
      status: 'failed',
      error: {
        code: -32001,
        message: expect.stringMatching(/a task run does not hold the caller's token .*client credentials/),
        data: { reason: 'no_caller_token' },
      },
    });
    const service = await runTask('ledger');
    expect(service).toMatchObject({
      status: 'completed',
      result: { structuredContent: { sub: idp.clientId, aud: AUDIENCES.ledger } },
    });
    expect(downstream.seen.map((s) => s.path)).toEqual(['/ledger/whoami']);
    expect(idp.tokenRequests[TOKEN_EXCHANGE]).toBeUndefined();
  }, 30_000);

  it('the replicas together asked the issuer as often as it answered, and none logged a token, secret or stack', async () => {
    const lines = (what: RegExp) =>
      replicas.reduce((n, r) => n + (`${r.stdout?.() ?? ''}\n${r.stderr()}`.match(what)?.length ?? 0), 0);
    // A grant is logged when the issuer's answer arrives, in the replica's batched log, which a loaded machine may
    // write a moment after the test that caused it ended: the counts get a few seconds to catch up, never more.
    // Past that, the exact counts below say what is missing (or what is logged too often).
    await waitFor(
      () =>
        lines(/token exchanged for a caller/g) >= asked[TOKEN_EXCHANGE] &&
        lines(/client_credentials token obtained/g) >= asked.client_credentials,
      5_000,
    ).catch(() => undefined);
    // Each grant is logged by the one replica that asked: the sum over the replicas is what the issuer counted.
    expect(lines(/token exchanged for a caller/g)).toBe(asked[TOKEN_EXCHANGE]);
    expect(lines(/client_credentials token obtained/g)).toBe(asked.client_credentials);
    const secrets = [...Object.values(callerTokens), ...issued, idp.clientSecret, 'outage-api-key'];
    for (const replica of replicas) {
      const output = `${replica.stdout?.() ?? ''}\n${replica.stderr()}`;
      for (const secret of secrets) expect(output).not.toContain(secret);
      expect(output).not.toMatch(/eyJ[\w-]{10,}\.[\w-]{10,}/);
      // A stack frame, raw or inside a JSON log line, and the checkout's own path.
      expect(output).not.toMatch(/(\n|\\n)\s+at \S+.*:\d+:\d+/);
      expect(output).not.toContain(process.cwd());
    }
  });
});
