import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eachApp } from '../support/apps';
import { ComposeConfig, composeConfig, composeSecrets, environment, runsTheServer } from '../support/compose-config';
import { LocalRedis, bytes, flag, startRedis, withoutSecrets } from '../support/deploy-secrets';
import { mcpPost, openMcpSession } from '../support/mcp-post';
import { managementUrlOf } from '../support/management-url';
import { RunningServer, startDeskHttp } from '../support/server-process';

/**
 * The compose Redis run for real: this machine's redis-server with the arguments docker-compose.yml gives it
 * (password, maxmemory, noeviction) on a port of its own (the machine's Redis on 6379 is not touched). Then what
 * the deployment relies on: a client without the password is refused, the healthcheck passes only as the service
 * runs it, a full Redis refuses writes and keeps every key, and a server with the replicas' REDIS_URL (the host
 * pointed here) is ready, counts a refused write in the metric the alert rules watch, and is not ready with a wrong
 * password. kubernetes-redis.e2e-spec.ts does the same for the Kubernetes base.
 */
describe('the compose Redis, run with its own arguments', () => {
  const [app] = eachApp()[0];
  let config: ComposeConfig;
  let args: string[];
  let redis: LocalRedis;
  const password = () => composeSecrets().values.REDIS_PASSWORD;

  beforeAll(async () => {
    config = composeConfig(app);
    const command = config.services.redis.command as string[];
    expect(command[0]).toBe('redis-server');
    args = command.slice(1);
    redis = await startRedis(args);
  });
  afterAll(() => redis?.stop());

  it('refuses a client without the password (NOAUTH) and answers one with it', () => {
    expect(redis.cli(['ping'])).toMatch(/^NOAUTH/);
    expect(redis.cli(['ping'], 'not-the-password')).toMatch(/WRONGPASS|invalid password/);
    expect(redis.cli(['ping'], password())).toBe('PONG');
  });

  it('passes its healthcheck as the service runs it (REDISCLI_AUTH set) and fails it without the password', () => {
    const [kind, script] = config.services.redis.healthcheck!.test as string[];
    expect(kind).toBe('CMD-SHELL');
    // The healthcheck runs in the container, where Redis is on the default port: a redis-cli shim points here.
    const real = spawnSync('sh', ['-c', 'command -v redis-cli'], { encoding: 'utf8' }).stdout.trim();
    const bin = mkdtempSync(join(tmpdir(), 'redis-cli-'));
    writeFileSync(join(bin, 'redis-cli'), `#!/bin/sh\nexec ${real} -p ${redis.port} "$@"\n`);
    chmodSync(join(bin, 'redis-cli'), 0o755);
    const PATH = `${bin}:${process.env.PATH}`;
    const timeout = 10_000;
    try {
      const containerEnv = environment(config.services.redis.environment);
      const healthy = spawnSync('sh', ['-c', script], { env: withoutSecrets({ ...containerEnv, PATH }), timeout });
      expect(healthy.status).toBe(0);
      // redis-cli exits 0 on NOAUTH: only the grep for PONG makes this fail.
      const unauthenticated = spawnSync('sh', ['-c', script], { env: withoutSecrets({ PATH }), timeout });
      expect(unauthenticated.status).not.toBe(0);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it('runs with maxmemory below the container limit and the noeviction policy', () => {
    const maxmemory = Number(redis.cli(['config', 'get', 'maxmemory'], password()).split('\n')[1]);
    expect(maxmemory).toBe(bytes(flag(args, '--maxmemory')!, 'redis'));
    expect(maxmemory).toBeLessThan(bytes(config.services.redis.mem_limit!, 'docker'));
    expect(redis.cli(['config', 'get', 'maxmemory-policy'], password()).split('\n')[1]).toBe('noeviction');
  });

  it('when full, refuses writes with an OOM error and keeps every key it holds', () => {
    const auth = password();
    for (let i = 0; i < 50; i++) redis.cli(['set', `kept:${i}`, 'x'.repeat(1000)], auth);
    const limit = redis.cli(['config', 'get', 'maxmemory'], auth).split('\n')[1];
    // The stand-in for a full Redis: a limit below what it already uses.
    redis.cli(['config', 'set', 'maxmemory', '1'], auth);
    try {
      expect(redis.cli(['set', 'one-more', 'x'], auth)).toMatch(/^OOM command not allowed/);
      expect(redis.cli(['dbsize'], auth)).toBe('50');
      expect(redis.cli(['exists', 'one-more'], auth)).toBe('0');
    } finally {
      redis.cli(['config', 'set', 'maxmemory', limit], auth);
      redis.cli(['flushall'], auth);
    }
    // Redis counts what it refused by error type: the exporter's redis_errors_total{err="OOM"}.
    expect(redis.cli(['info', 'errorstats'], auth)).toMatch(/errorstat_OOM:count=[1-9]/);
  });

  describe("a server with the replicas' REDIS_URL, pointed at this Redis", () => {
    let server: RunningServer | undefined;
    afterEach(async () => {
      await server?.stop();
      server = undefined;
      redis.cli(['config', 'set', 'maxmemory', flag(args, '--maxmemory')!], password());
      redis.cli(['flushall'], password());
    });

    /** The first replica's REDIS_URL (and request-state key) with only the host changed to this machine. */
    function replicaEnvironment(change: (url: URL) => void = () => undefined): Record<string, string> {
      const replica = Object.values(config.services).find(runsTheServer)!;
      const env = environment(replica.environment);
      const url = new URL(env.REDIS_URL);
      url.host = `127.0.0.1:${redis.port}`;
      change(url);
      return {
        MCP_STORE: 'redis',
        REDIS_URL: url.href,
        MCP_REQUEST_STATE_SECRET: env.MCP_REQUEST_STATE_SECRET,
      };
    }

    it('is ready, and counts a write the full Redis refuses as upstream_unavailable (the alert metric)', async () => {
      server = await startDeskHttp(replicaEnvironment());
      expect((await fetch(new URL('/ready', server.url))).status).toBe(200);
      const endpoint = new URL('/mcp', server.url).href;
      const session = await openMcpSession(endpoint, server.token);
      redis.cli(['config', 'set', 'maxmemory', '1'], password());
      const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_tickets', arguments: {} } };
      const answer = await mcpPost(endpoint, call, server.token, { 'mcp-session-id': session });
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBeTruthy();
      const metrics = await (await fetch(await managementUrlOf(server))).text();
      expect(metrics).toMatch(
        /^mcp_server_operation_duration_seconds_count\{[^}]*status="upstream_unavailable"[^}]*\} 1$/m,
      );
    });

    it('with a wrong password, it is not ready', async () => {
      server = await startDeskHttp(replicaEnvironment((url) => (url.password = 'f'.repeat(64))));
      expect((await fetch(new URL('/ready', server.url))).status).toBe(503);
    });
  });
});
