import { randomBytes } from 'node:crypto';
import { RunningServer } from '../support/server-process';
import { TestIssuer } from '../support/test-issuer';
import { modernPost } from '../support/modern-post';
import { startReplicas, stopReplicas, suiteRedis } from '../support/replicas';
import { SdkSession, ToolResult, connectSdk1, connectSdk2 } from '../support/sdk-sessions';

const REPLAY = 'corporate/idempotent-replay';
const replayed = (result: ToolResult) => (result as { _meta?: Record<string, unknown> })._meta?.[REPLAY] === true;
const requestId = () => `req-${randomBytes(8).toString('hex')}`;

/**
 * A mutating tool declared `idempotency: { key: 'requestId', replay: true }`, called through two desk replica
 * processes on the machine's Redis with the official 1.x and 2.x clients and a 2026-07-28 request: the first call runs
 * the tool on one replica, a repeat on the other is answered with the first answer (marked in `_meta`) and the tool
 * ran once in the whole deployment, counted by each replica's own `refund_runs`.
 */
describe('idempotency keys across replicas on Redis (mutation.idempotency.replay)', () => {
  const { prefix, redis, cleanup } = suiteRedis();
  let issuer: TestIssuer;
  let a: RunningServer;
  let b: RunningServer;
  let onA: SdkSession;
  let onB: SdkSession;
  let token: string;

  /** Runs of refund_order over both replicas (each counts its own). */
  const runs = async () => {
    const counts = await Promise.all(
      [onA, onB].map(async (s) => (await s.call('refund_runs', {})).structuredContent as { runs: number }),
    );
    return counts.reduce((sum, c) => sum + c.runs, 0);
  };

  beforeAll(async () => {
    issuer = await TestIssuer.start();
    [a, b] = await startReplicas(2, {
      ...issuer.env(),
      MCP_STORE: 'redis',
      MCP_REDIS_PREFIX: prefix,
      DESK_REPLAY_TOOLS: 'on',
    });
    token = await issuer.mint({ sub: 'alice', scope: 'tickets:read tickets:write' });
    onA = await connectSdk1(new URL(a.url), token);
    onB = await connectSdk2(new URL(b.url), token);
  });
  afterAll(async () => {
    await onA?.close();
    await onB?.close();
    await stopReplicas([a, b]);
    await issuer?.close();
    await cleanup();
  });

  it('answers a repeat on the other replica with the first answer, marked, and the tool ran once', async () => {
    const before = await runs();
    const args = { requestId: requestId(), order: 'A-1', amount: 25 };
    const first = await onA.call('refund_order', args);
    expect(first.isError).toBeFalsy();
    expect(replayed(first)).toBe(false);
    const repeat = await onB.call('refund_order', args);
    expect(replayed(repeat)).toBe(true);
    expect(repeat.structuredContent).toEqual(first.structuredContent);
    // A 2026-07-28 request (no session) on replica B gets the same answer.
    const modern = (await (
      await modernPost(b.url, 'tools/call', { name: 'refund_order', arguments: args }, { token })
    ).json()) as { result: { structuredContent: unknown; _meta?: Record<string, unknown> } };
    expect(modern.result.structuredContent).toEqual(first.structuredContent);
    expect(modern.result._meta?.[REPLAY]).toBe(true);
    expect(await runs()).toBe(before + 1);
    // The answer lives in the deployment's Redis under the suite's prefix, with a TTL.
    const [entry] = await redis.keys(`${prefix}{idempotency}:entry:*`);
    expect(await redis.pttl(entry)).toBeGreaterThan(0);
  });

  it('refuses the same requestId with other arguments on either replica (-32602 idempotency_key_reused)', async () => {
    const before = await runs();
    const key = requestId();
    await onA.call('refund_order', { requestId: key, order: 'A-2', amount: 10 });
    const res = await modernPost(
      b.url,
      'tools/call',
      { name: 'refund_order', arguments: { requestId: key, order: 'A-2', amount: 99 } },
      { token },
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: { code: -32602, data: { field: 'requestId', reason: 'idempotency_key_reused' } },
    });
    expect(await runs()).toBe(before + 1);
  });

  it('keeps keys per caller: another caller with the same requestId gets its own run', async () => {
    const before = await runs();
    const args = { requestId: requestId(), order: 'A-3', amount: 5 };
    await onA.call('refund_order', args);
    const bob = await connectSdk2(new URL(b.url), await issuer.mint({ sub: 'bob', scope: 'tickets:read' }));
    try {
      expect(replayed(await bob.call('refund_order', args))).toBe(false);
    } finally {
      await bob.close();
    }
    expect(await runs()).toBe(before + 2);
  });

  it('runs concurrent duplicates on both replicas once: the other is told it is in progress, or replayed', async () => {
    const before = await runs();
    const args = { requestId: requestId(), order: 'A-4', amount: 40, stepMs: 300 };
    const outcomes = await Promise.all(
      [onA, onB].map((s) =>
        s.call('refund_order', args).then(
          (result) => (replayed(result) ? 'replayed' : 'ran'),
          (error: { code?: number; message?: string }) => `${error.code}: ${error.message}`,
        ),
      ),
    );
    expect(outcomes.filter((o) => o === 'ran')).toHaveLength(1);
    expect(outcomes.find((o) => o !== 'ran')).toMatch(/^(replayed|-32007: .*still running)/);
    expect(await runs()).toBe(before + 1);
  });
});
