import { once } from 'node:events';
import { Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { DownstreamCredentials } from './credentials/downstream-credentials.interface';
import { McpDownstreamOptions } from './downstream-options.interface';
import { resolveDownstreamOptions } from './downstream-options.resolver';
import { HEALTH_PATH_TIMEOUT_MS, downstreamReadinessCheck } from './downstream-readiness.check';
import { readinessCheckName } from './downstream-names';
import { McpDownstreamClient } from './mcp-downstream.client';

describe('the readiness check of a downstream', () => {
  let server: Server;
  let origin: string;
  let health: number | 'hang';
  let api: number;
  const clients: McpDownstreamClient[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/status/health') {
        if (health !== 'hang') res.writeHead(health).end();
        return;
      }
      res.writeHead(api).end();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    health = 200;
    api = 200;
  });
  afterEach(() => Promise.all(clients.splice(0).map((c) => c.onModuleDestroy())));
  afterAll(() => {
    server.closeAllConnections();
    return new Promise((r) => server.close(r));
  });

  const checkOf = (options: Partial<McpDownstreamOptions>, credentials?: DownstreamCredentials) => {
    const client = new McpDownstreamClient(
      resolveDownstreamOptions({ name: 'jira-cloud', baseUrl: `${origin}/api/`, retry: false, ...options }),
      credentials,
    );
    clients.push(client);
    const Check = downstreamReadinessCheck('jira-cloud');
    return { client, probe: () => new Check(client).isHealthy('k', AbortSignal.timeout(5_000)) };
  };

  it('is named downstream_<name>, lower case with "_" for "-"', () => {
    expect(readinessCheckName('Jira-Cloud')).toBe('downstream_jira_cloud');
  });

  it('is down while the breaker is open, up again when it half-opens', async () => {
    const { client, probe } = checkOf({ readiness: true, breaker: { consecutiveFailures: 1, halfOpenAfterMs: 200 } });
    expect(await probe()).toEqual({ k: { status: 'up' } });
    api = 503;
    await expect(client.get('x')).rejects.toThrow();
    expect(client.breakerState).toBe('open');
    await expect(probe()).rejects.toThrow('downstream "jira-cloud": the circuit breaker is open');
    await new Promise((r) => setTimeout(r, 250));
    expect(await probe()).toEqual({ k: { status: 'up' } });
  });

  it('asks the health path (from the root with a leading /): down unless it answers 2xx in time', async () => {
    const { probe } = checkOf({ readiness: { path: '/status/health' } });
    expect(await probe()).toEqual({ k: { status: 'up' } });
    health = 503;
    await expect(probe()).rejects.toThrow('health path /status/health answered 503');
    health = 'hang';
    const started = Date.now();
    await expect(probe()).rejects.toThrow(`no answer within ${HEALTH_PATH_TIMEOUT_MS} ms`);
    expect(Date.now() - started).toBeLessThan(HEALTH_PATH_TIMEOUT_MS + 1_000);
  }, 10_000);

  it('is down while the token issuer cannot be reached (credentials say so)', async () => {
    let reachable = false;
    const credentials: DownstreamCredentials = {
      headers: () => Promise.resolve({}),
      issuerReachable: () => Promise.resolve(reachable),
    };
    const { probe } = checkOf({ readiness: true }, credentials);
    await expect(probe()).rejects.toThrow('the token issuer cannot be reached and no token is usable');
    reachable = true;
    expect(await probe()).toEqual({ k: { status: 'up' } });
  });
});
