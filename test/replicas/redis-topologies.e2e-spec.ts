import { randomBytes } from 'node:crypto';
import { mcpPost, openMcpSession } from '../support/mcp-post';
import { RedisTopology, cli, startCluster, startSentinel, startTlsRedis } from '../support/redis-topologies';
import { startReplicas, stopReplicas, suiteRedis } from '../support/replicas';
import { RunningServer } from '../support/server-process';
import { TestIssuer } from '../support/test-issuer';

/**
 * The Redis store over TLS, behind Sentinel and on a Cluster, with real redis-server processes: two desk replicas
 * share a session through each (opened on one, called and ended through the other).
 */
describe.each([
  ['TLS connection (rediss://)', 'tls'],
  ['Sentinel', 'sentinel'],
  ['Cluster', 'cluster'],
] as const)('replicas on a Redis %s', (_label, kind) => {
  const machine = suiteRedis();
  let topology: RedisTopology;
  let issuer: TestIssuer;
  let replicas: RunningServer[] = [];
  let token: string;
  // A Cluster needs a hash tag in the prefix (all of a server's keys in one slot).
  const prefix = kind === 'cluster' ? `{test:${randomBytes(6).toString('hex')}}:` : machine.prefix;
  const master = `mcp-test-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    topology =
      kind === 'tls' ? await startTlsRedis() : kind === 'sentinel' ? await startSentinel(master) : await startCluster();
    issuer = await TestIssuer.start();
    const shapes: Record<typeof kind, Record<string, string>> = {
      // The server checks the certificate against Node's CAs plus NODE_EXTRA_CA_CERTS, and its name (localhost).
      tls: { REDIS_URL: `rediss://${topology.nodes[0]}`, NODE_EXTRA_CA_CERTS: topology.caFile! },
      sentinel: {
        REDIS_SENTINELS: topology.nodes.join(','),
        REDIS_SENTINEL_NAME: master,
        REDIS_URL: 'redis://unused:1',
      },
      cluster: { REDIS_CLUSTER_NODES: topology.nodes[0] },
    };
    const where = shapes[kind];
    replicas = await startReplicas(2, { ...issuer.env(), MCP_STORE: 'redis', MCP_REDIS_PREFIX: prefix, ...where });
    token = await issuer.mint({ sub: 'alice' });
  }, 60_000);
  afterAll(async () => {
    await stopReplicas(replicas);
    await issuer?.close();
    await topology?.stop();
    await machine.cleanup();
  });

  const listOn = (url: string, session: string) =>
    mcpPost(url, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, token, { 'mcp-session-id': session });
  const endOn = (url: string, session: string) =>
    fetch(url, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}`, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
    });

  /** Lists on `url` until the session is refused, for at most 3 s (the store check runs once a second). */
  const refusedOn = async (url: string, session: string) => {
    let status = (await listOn(url, session)).status;
    const atOnce = status === 404;
    for (const until = Date.now() + 3_000; status !== 404 && Date.now() < until;) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await listOn(url, session)).status;
    }
    return { status, atOnce };
  };

  it('serves a session opened on one replica from the other, and ends it everywhere', async () => {
    const [a, b] = replicas;
    const session = await openMcpSession(a.url, token);
    const call = await mcpPost(
      b.url,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search_tickets', arguments: { query: 'vpn' } } },
      token,
      { 'mcp-session-id': session },
    );
    expect(call.status).toBe(200);
    expect(await call.json()).toMatchObject({ id: 2, result: { structuredContent: expect.any(Object) } });
    expect((await endOn(b.url, session)).status).toBe(200);
    // At once nearly always; within the store check's second always (the race is told in the test below).
    expect((await refusedOn(a.url, session)).status).toBe(404);
  });

  it('keeps its state where the topology says', async () => {
    const session = await openMcpSession(replicas[0].url, token);
    if (kind === 'tls') {
      const port = topology.nodes[0].split(':')[1];
      const exists = cli(Number(port), [
        '--tls',
        '--cacert',
        topology.caFile!,
        'EXISTS',
        `${prefix}session:${session}`,
      ]);
      expect(exists).toBe('1');
    } else if (kind === 'sentinel') {
      // The sentinel named the machine's Redis as the master: the record is there.
      expect(await machine.redis.exists(`${prefix}session:${session}`)).toBe(1);
    } else {
      const key = `${prefix}session:${session}`;
      const port = Number(topology.nodes[0].split(':')[1]);
      const slot = cli(port, ['CLUSTER', 'KEYSLOT', key]);
      expect(slot).toBe(cli(port, ['CLUSTER', 'KEYSLOT', `${prefix}open`]));
      expect(cli(port, ['-c', 'EXISTS', key])).toBe('1');
      // The bus is sharded pub/sub: its channels live on the master of their slot, not on the cluster bus.
      const owner = topology.nodes.find((n) => cli(Number(n.split(':')[1]), ['EXISTS', key]) === '1')!;
      const channels = cli(Number(owner.split(':')[1]), ['PUBSUB', 'SHARDCHANNELS', `${prefix}bus:*`]);
      expect(channels.split('\n')).toContain(`${prefix}bus:session-ended`);
    }
  });

  it('refuses a session on every replica as soon as one answered its DELETE (repeated, both ways)', async () => {
    // Redis queues the bus message to the other replica before it answers the publisher, but queued is not yet
    // read: with the cores saturated (Redis preempted between its writes, or the replica reading the request
    // first; seen once in about 20 runs, both replicas subscribed) the other replica serves the session once more,
    // until the message or its once-a-second store check ends it. So: nearly every cycle ends at once, and every
    // cycle within a second. (Plain PUBLISH on a Cluster, which crosses the cluster bus after the answer, is caught
    // by the test above: its channel is not a shard channel.)
    let atOnce = 0;
    for (let i = 0; i < 12; i++) {
      const [a, b] = i % 2 ? replicas : [...replicas].reverse();
      const session = await openMcpSession(a.url, token);
      expect((await listOn(a.url, session)).status).toBe(200); // held live on a: only the bus message ends it there
      expect((await endOn(b.url, session)).status).toBe(200);
      const refused = await refusedOn(a.url, session);
      expect(refused.status).toBe(404);
      if (refused.atOnce) atOnce++;
    }
    // Nearly every: a bus message that missed the other replica ends none at once; the race above ends one at times.
    expect(atOnce).toBeGreaterThanOrEqual(9);
  });
});
