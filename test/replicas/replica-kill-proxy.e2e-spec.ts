import { startReplicas, stopReplicas, suiteRedis } from '../support/replicas';
import { TestIssuer } from '../support/test-issuer';
import { mcpPost, openMcpSession } from '../support/mcp-post';
import { ProxiedRequest, startRoundRobinProxy } from '../support/round-robin-proxy';
import { sleep } from '../support/wait';

/** One tools/call of the load, as the client saw it. */
interface Sent {
  id: number;
  started: number;
  status: number;
  /** A JSON-RPC result with tickets came back. */
  ok: boolean;
}

/**
 * kill -9 of one of three replicas under steady tools/call load, through the round-robin proxy (which, like an
 * ordinary load balancer, sends a request the dead replica refuses on to the next one). Sessions live in Redis, so
 * none is lost; only the calls that were running on the killed replica at that instant may fail.
 */
describe('kill -9 of one of three replicas under steady load behind the round-robin proxy', () => {
  const { prefix, cleanup } = suiteRedis();
  let issuer: TestIssuer;

  beforeAll(async () => {
    issuer = await TestIssuer.start();
  });
  afterAll(async () => {
    await issuer?.close();
    await cleanup();
  });

  it('loses no session, answers every call sent after the kill, and fails only calls in flight on the killed replica', async () => {
    // A load as fast as the client can send: budgets out of the way (they are tested on their own).
    const env = {
      ...issuer.env(),
      MCP_STORE: 'redis',
      MCP_REDIS_PREFIX: prefix,
      MCP_REQUESTS_PER_MINUTE: '10000000',
      MCP_RATE_LIMIT_PER_MINUTE: '10000000',
      MCP_MAX_CONCURRENT_CALLS: '1000',
    };
    const replicas = await startReplicas(3, env);
    const proxy = await startRoundRobinProxy(replicas.map((r) => new URL(r.url).origin));
    const token = await issuer.mint({ sub: 'steady' });
    const mcp = `${proxy.origin}/mcp`;
    const victim = 0;
    try {
      const sessions: string[] = [];
      for (let i = 0; i < 10; i++) sessions.push(await openMcpSession(mcp, token));
      const call = async (session: string, id: number): Promise<Sent> => {
        const started = Date.now();
        const params = { name: 'search_tickets', arguments: { query: 'vpn' } };
        try {
          const res = await mcpPost(mcp, { jsonrpc: '2.0', id, method: 'tools/call', params }, token, {
            'mcp-session-id': session,
          });
          return { id, started, status: res.status, ok: res.status === 200 && hasTickets(await res.text(), id) };
        } catch {
          // The answer had started and its stream was cut (its replica died).
          return { id, started, status: 0, ok: false };
        }
      };

      let stop = false;
      const sent: Sent[] = [];
      const began = Date.now();
      const load = Promise.all(
        sessions.map(async (session, i) => {
          for (let n = 0; !stop; n++) sent.push(await call(session, 100_000 * (i + 1) + n));
        }),
      );
      // A second of load, and at least a share of it on the victim (a starved machine once served only 10 there).
      await sleep(1_000);
      for (const until = Date.now() + 10_000; proxy.counts[victim] <= 10 && Date.now() < until;) await sleep(50);
      const servedBefore = proxy.counts[victim];
      const doneAtKill = new Set(proxy.log.filter((e) => e.done));
      const inFlightAtSignal = proxy.inFlight(victim).length;
      const signalled = Date.now();
      const exited = new Promise((r) => replicas[victim].process.once('exit', r));
      replicas[victim].process.kill('SIGKILL');
      await exited;
      const killedAt = Date.now();
      // Calls the killed replica had taken and not answered when the signal went, or took before it was gone.
      const exposed = proxy.log.filter((e) => e.tried.includes(victim) && !doneAtKill.has(e));
      // Past the proxy's 2 s down mark, so that the dead replica is met (and skipped) again.
      await sleep(2_500);
      stop = true;
      await load;
      const loadMs = Date.now() - began;

      const after = sent.filter((r) => r.started >= killedAt);
      const failed = sent.filter((r) => !r.ok);
      const exposedIds = new Set(exposed.map((e: ProxiedRequest) => e.id));
      const skipped = proxy.log.filter((e) => e.tried[0] === victim && e.tried.length > 1);
      let lost = 0;
      for (const [i, session] of sessions.entries()) if (!(await call(session, 900_000 + i)).ok) lost++;
      // The numbers issue #12 asks for, in the test output.
      console.log(
        `kill -9 under load: ${sent.length} calls in ${loadMs} ms, ${sent.length - failed.length} answered; ` +
          `${after.length} sent after the kill, ${after.filter((r) => r.ok).length} answered; ` +
          `${failed.length} failed in flight (statuses ${JSON.stringify(failed.map((r) => r.status))}) of ` +
          `${inFlightAtSignal} in flight on the killed replica at the signal, ${exposed.length} exposed until it ` +
          `was gone (${killedAt - signalled} ms); ${skipped.length} sent on past the dead replica; ` +
          `${lost} of ${sessions.length} sessions lost`,
      );

      expect(servedBefore).toBeGreaterThan(10); // the killed replica had its share of the load
      expect(after.length).toBeGreaterThan(50); // steady load went on (hundreds of calls on an idle machine)
      expect(after.filter((r) => !r.ok)).toEqual([]);
      // Only calls the killed replica had taken can fail; each load loop has one call in flight at a time.
      for (const r of failed) expect(exposedIds).toContain(r.id);
      expect(failed.length).toBeLessThanOrEqual(Math.min(exposed.length, sessions.length));
      // The proxy met the dead replica in its turn and sent those calls on, answered.
      expect(skipped.length).toBeGreaterThan(0);
      expect(skipped.every((e) => e.status === 200)).toBe(true);
      expect(lost).toBe(0);
    } finally {
      await proxy.close();
      await stopReplicas(replicas);
    }
    // Three replica processes start inside the test: on a loaded 2-core machine that alone took most of 30 s.
  }, 90_000);
});

/** Whether an answer (JSON, or an SSE stream of JSON-RPC messages) carries the result of call `id`, with tickets. */
function hasTickets(body: string, id: number): boolean {
  const messages = body.trimStart().startsWith('{')
    ? [body]
    : [...body.matchAll(/^data: (.+)$/gm)].map((m) => m[1]).filter((d) => d.trim());
  return messages.some((m) => {
    const msg = JSON.parse(m) as { id?: number; result?: { isError?: boolean; structuredContent?: { tickets?: [] } } };
    return msg.id === id && !msg.result?.isError && (msg.result?.structuredContent?.tickets?.length ?? 0) > 0;
  });
}
