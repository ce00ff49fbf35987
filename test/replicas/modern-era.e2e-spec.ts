import { RunningServer } from '../support/server-process';
import { TestIssuer } from '../support/test-issuer';
import { MODERN_META, modernPost } from '../support/modern-post';
import { startReplicas, stopReplicas, suiteRedis } from '../support/replicas';
import { waitFor } from '../support/wait';
import { listen } from '../support/listen-stream';

const ELICIT = { ...MODERN_META, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };

/**
 * 2026-07-28 requests across two desk replica processes on the machine's Redis: a multi round-trip call started on
 * one replica is finished on the other (the requestState key is shared through Redis, nothing else is held), and a
 * subscriptions/listen stream on one replica hears a change made on the other.
 */
describe('2026-07-28 across replicas on Redis', () => {
  const { prefix, redis, cleanup } = suiteRedis();
  let issuer: TestIssuer;
  let a: RunningServer;
  let b: RunningServer;
  let token: string;

  beforeAll(async () => {
    issuer = await TestIssuer.start();
    [a, b] = await startReplicas(2, {
      ...issuer.env(),
      MCP_STORE: 'redis',
      MCP_REDIS_PREFIX: prefix,
      MCP_MAX_STREAMS_PER_SUBJECT: '2',
    });
    token = await issuer.mint({ sub: 'alice' });
  });
  afterAll(async () => {
    await stopReplicas([a, b]);
    await issuer?.close();
    await cleanup();
  });

  it('finishes on replica B a call whose question replica A asked', async () => {
    const params = { name: 'close_ticket', arguments: { id: 'HD-11', resolution: 'Swapped the dock' } };
    const first = (await (await modernPost(a.url, 'tools/call', params, { token, meta: ELICIT })).json()) as {
      result: { resultType: string; requestState: string };
    };
    expect(first.result.resultType).toBe('input_required');
    // The sealing key is the deployment's: one Redis key, created by whichever replica needed it first.
    expect(await redis.exists(`${prefix}key:request-state`)).toBe(1);
    const retry = await modernPost(
      b.url,
      'tools/call',
      {
        ...params,
        requestState: first.result.requestState,
        inputResponses: { elicitation_1: { action: 'accept', content: { confirm: true } } },
      },
      { token, meta: ELICIT, id: 2 },
    );
    expect(retry.status).toBe(200);
    expect(await retry.json()).toMatchObject({
      id: 2,
      result: { resultType: 'complete', structuredContent: { id: 'HD-11', status: 'closed' } },
    });
  });

  it('delivers a change made on replica B to a subscriptions/listen stream held by replica A', async () => {
    const stream = await listen(a.url, token, { resourceSubscriptions: ['desk://tickets/HD-12'] }, 'sub-1');
    const { frames } = stream;
    try {
      expect(frames[0]).toMatchObject({
        method: 'notifications/subscriptions/acknowledged',
        params: {
          notifications: { resourceSubscriptions: ['desk://tickets/HD-12'] },
          _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' },
        },
      });
      // Closed on B (a replica without the stream); the elicitation is declined by not declaring it.
      const closed = await modernPost(
        b.url,
        'tools/call',
        {
          name: 'close_ticket',
          arguments: { id: 'HD-12', resolution: 'Reset the token' },
        },
        { token },
      );
      expect(closed.status).toBe(200);
      await waitFor(() => frames.length > 1, 5_000, 'the update from replica B');
      expect(frames[1]).toMatchObject({
        method: 'notifications/resources/updated',
        params: { uri: 'desk://tickets/HD-12', _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' } },
      });
    } finally {
      await stream.close();
    }
  });

  it("caps one subject's listen streams for the whole deployment, not per replica", async () => {
    const streamer = await issuer.mint({ sub: 'streamer' });
    const onA = await listen(a.url, streamer);
    const onB = await listen(b.url, streamer);
    const third = await listen(a.url, streamer);
    const fourth = await listen(b.url, streamer);
    expect([onA.status, onB.status, third.status, fourth.status]).toEqual([200, 200, 429, 429]);
    expect(fourth.body!.error).toMatchObject({ code: -32003, data: { reason: 'stream_limit' } });
    // Another subject is not affected.
    const other = await listen(b.url, await issuer.mint({ sub: 'someone-else' }));
    expect(other.status).toBe(200);
    await Promise.all([onA.close(), onB.close(), other.close()]);
  });
});
