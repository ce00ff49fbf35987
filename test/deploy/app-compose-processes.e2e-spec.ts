import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpTestIssuer } from '@app/mcp-testing';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { builtMain, eachApp } from '../support/apps';
import { RunningServer, startHttpServer } from '../support/server-process';
import { suiteRedis } from '../support/replicas';
import { managementUrlOf } from '../support/management-url';
import { onThisMachine } from '../support/deploy-env';
import { sampleArguments } from '../support/sample-arguments';
import {
  COMPOSE_DIR,
  ROOT,
  ComposeService,
  composeConfig,
  composeSecrets,
  environment,
  imageEnvironment,
  replicaServices,
} from '../support/compose-config';
import { LocalNginx, startNginx } from '../support/local-nginx';
import { OtlpSink, startOtlpSink } from '../support/otlp-sink';

/**
 * docker-compose.yml's configuration for every app under apps/ (`APP=<app>`) run as processes (no container
 * engine here): the built app with each replica's environment from `docker-compose config` plus the image's,
 * behind the real nginx with the compose nginx.conf. Only addresses change: Redis is the machine's (on a key prefix
 * of this suite), Keycloak is a local JWKS issuer with the realm's issuer and audience, the collector is an OTLP
 * endpoint that keeps what it gets, and each replica's management port is an ephemeral one (two processes cannot
 * share 9464 on one host).
 */
describe.each(eachApp())(
  '%s deployed by docker-compose.yml, run as processes: replicas on Redis behind nginx',
  (app) => {
    const redis = suiteRedis();
    let issuer: McpTestIssuer;
    let sink: OtlpSink;
    let nginx: LocalNginx;
    const replicas: { name: string; server: RunningServer; metricsUrl: string }[] = [];
    let client: Client;
    let call: { name: string; arguments: Record<string, unknown> } | undefined;

    beforeAll(async () => {
      // The app as the image builds it (the test command builds only the library's fixtures): `nest build` through
      // the build script, which skips it when nothing the app reads changed since its last build (the contract gate's).
      const build = spawnSync(process.execPath, ['scripts/start.mjs', '--build-only', app], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 120_000,
      });
      if (build.status !== 0) throw new Error(`nest build ${app} failed:\n${build.stdout}\n${build.stderr}`);
      const config = composeConfig(app);
      const services = replicaServices(config);
      const first = environment(services[0][1].environment);
      issuer = await McpTestIssuer.start({
        issuer: first.MCP_JWT_ISSUER,
        audience: first.MCP_JWT_AUDIENCE,
        scope: realmScopes().join(' '),
      });
      sink = await startOtlpSink();
      for (const [name, service] of services) {
        const server = await startHttpServer(builtMain(app), localEnvironment(service));
        replicas.push({ name, server, metricsUrl: (await managementUrlOf(server)).href });
      }
      nginx = await startNginx(
        resolve(COMPOSE_DIR, 'nginx.conf'),
        Object.fromEntries(replicas.map((r) => [r.name, new URL(r.server.url).host])),
      );
    }, 180_000);

    afterAll(async () => {
      await client?.close().catch(() => undefined);
      await nginx?.stop();
      await Promise.all(replicas.map((r) => r.server.stop()));
      await sink?.close();
      await issuer?.close();
      await redis.cleanup();
    });

    /**
     * Each replica's environment as compose gives it (secrets from a generated .env), pointed at this machine's
     * stand-ins: REDIS_URL becomes the machine's Redis, which has no password (redis-auth.e2e-spec.ts runs the
     * compose Redis's arguments, password included, against the same URL shape).
     */
    function localEnvironment(service: ComposeService): Record<string, string> {
      const env = { ...imageEnvironment(), ...environment(service.environment) };
      expect(env.REDIS_URL).toBe(`redis://:${composeSecrets().values.REDIS_PASSWORD}@redis:6379`);
      expect(env.MCP_REQUEST_STATE_SECRET).toBe(composeSecrets().values.MCP_REQUEST_STATE_SECRET);
      expect(env.OTEL_EXPORTER_OTLP_ENDPOINT).toBe('http://otel-collector:4318');
      return { ...env, ...onThisMachine({ redisPrefix: redis.prefix, jwksUri: issuer.jwksUri, otlpUrl: sink.url }) };
    }

    it('every replica boots in production mode, names Redis as its store and is ready', async () => {
      for (const { server, metricsUrl } of replicas) {
        expect(server.process.exitCode).toBeNull();
        expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
        const ready = await fetch(new URL('/ready', server.url));
        expect(ready.status).toBe(200);
        expect(JSON.stringify(await ready.json())).toMatch(/session_store/);
      }
    });

    it('an official SDK client runs a whole session through the load balancer, served by every replica', async () => {
      client = new Client({ name: 'compose-e2e', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL('/mcp', nginx.origin), {
          requestInit: { headers: { Authorization: `Bearer ${await issuer.mint({ sub: 'compose-user' })}` } },
        }),
      );
      expect(client.getServerVersion()?.name).toBe(app);
      const { tools } = await client.listTools();
      // A read-only tool of the app whose arguments a simple schema describes, called with the realm's scopes.
      call = tools
        .filter((t) => t.annotations?.readOnlyHint)
        .map((t) => ({ name: t.name, arguments: sampleArguments(t.inputSchema)! }))
        .find((c) => c.arguments !== undefined);
      expect(call).toBeDefined();
      for (let i = 0; i < 6; i++) {
        const result = await client.callTool(call!);
        expect(result.isError).toBeFalsy();
      }
      // What Prometheus scrapes: each replica counted some of the calls, together all of them.
      const counts = await Promise.all(replicas.map((r) => toolCalls(r.metricsUrl, call!.name)));
      for (const count of counts) expect(count).toBeGreaterThan(0);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(6);
    });

    it('refuses a token the realm did not issue (401) and keeps /metrics off the load balancer', async () => {
      const stranger = await McpTestIssuer.start({ issuer: 'https://elsewhere.example', audience: 'mcp:other' });
      try {
        const answer = await fetch(new URL('/mcp', nginx.origin), {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${await stranger.mint()}`,
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
        });
        expect(answer.status).toBe(401);
      } finally {
        await stranger.close();
      }
      expect((await fetch(new URL('/metrics', nginx.origin))).status).toBe(404);
    });

    it('exports traces over OTLP from every replica, named by service and instance', async () => {
      const deadline = Date.now() + 15_000;
      const seen = (): string => sink.traces.map((b) => b.toString('latin1')).join('\n');
      while (Date.now() < deadline && !replicas.every((r) => seen().includes(r.name))) {
        await new Promise((r) => setTimeout(r, 250));
      }
      const all = seen();
      expect(all).toContain(app);
      expect(all).toContain('tools/call');
      for (const { name } of replicas) expect(all).toContain(name);
    }, 20_000);

    it('a replica killed with SIGKILL: the session goes on through the load balancer on the others', async () => {
      const [victim] = replicas;
      await new Promise<void>((ok) => {
        victim.server.process.once('exit', () => ok());
        victim.server.process.kill('SIGKILL');
      });
      for (let i = 0; i < 4; i++) {
        const result = await client.callTool(call!);
        expect(result.isError).toBeFalsy();
      }
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(0);
    });
  },
);

/** The scopes the compose realm puts in its tokens (deploy/compose/keycloak-realm.json), as a client gets them. */
function realmScopes(): string[] {
  const realm = JSON.parse(readFileSync(resolve(COMPOSE_DIR, 'keycloak-realm.json'), 'utf8')) as {
    clientScopes: { name: string; attributes: Record<string, string> }[];
  };
  return realm.clientScopes.filter((s) => s.attributes['include.in.token.scope'] === 'true').map((s) => s.name);
}

/** `mcp_tool_calls_total` for one tool, summed over its label sets, from a Prometheus text page. */
async function toolCalls(metricsUrl: string, tool: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('mcp_tool_calls_total{') && line.includes(`tool="${tool}"`))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}
