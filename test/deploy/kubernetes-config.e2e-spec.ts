import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpTestIssuer } from '@app/mcp-testing';
import { request } from 'node:http';
import { K8sResource, checkKustomization, find } from '../support/kubernetes';
import { imageEnvironment, onThisMachine } from '../support/deploy-env';
import { generatedEnv } from '../support/deploy-secrets';
import { OtlpSink, startOtlpSink } from '../support/otlp-sink';
import { suiteRedis } from '../support/replicas';
import { managementUrlOf } from '../support/management-url';
import { DESK_MAIN, RunningServer, startHttpServer } from '../support/server-process';

/**
 * The base's configuration run as a process (no cluster here): the image's environment, the ConfigMap, the Secret
 * (as `npm run env:generate -- --kubernetes` makes it: the base holds none) and the container's own env, as a pod
 * gets them. Addresses change only: Redis is the machine's (this suite's
 * key prefix), the issuer a local JWKS issuer with the ConfigMap's issuer and audience, the collector a local
 * OTLP endpoint, and the ports are ephemeral. Then what the kubelet and a client do: probes with the pod's IP as
 * Host on the management port, and an authenticated session with the Ingress host.
 */
const POD_IP_HOST = '10.244.1.17';

describe('the Kubernetes base configuration, run as a pod would run it', () => {
  const redis = suiteRedis();
  const { resources } = checkKustomization('deploy/kubernetes/base');
  const config = find<K8sResource & { data: Record<string, string> }>(resources, 'ConfigMap', 'mcp-server').data;
  const secret = generatedEnv('--kubernetes').values;
  let issuer: McpTestIssuer;
  let sink: OtlpSink;
  let server: RunningServer;
  let management: URL;

  beforeAll(async () => {
    issuer = await McpTestIssuer.start({
      issuer: config.MCP_JWT_ISSUER,
      audience: config.MCP_JWT_AUDIENCE,
      scope: 'tickets:read tickets:write',
    });
    sink = await startOtlpSink();
    server = await startHttpServer(DESK_MAIN, {
      ...imageEnvironment(),
      ...config,
      ...secret,
      POD_NAME: 'mcp-server-7d9f-abcde',
      OTEL_RESOURCE_ATTRIBUTES: 'service.instance.id=mcp-server-7d9f-abcde',
      ...onThisMachine({ redisPrefix: redis.prefix, jwksUri: issuer.jwksUri, otlpUrl: sink.url }),
    });
    management = await managementUrlOf(server);
  }, 30_000);

  afterAll(async () => {
    await server?.stop();
    await sink?.close();
    await issuer?.close();
    await redis.cleanup();
  });

  it('answers the kubelet probes (Host: the pod IP) on the management port: /health and /ready', async () => {
    const port = Number(management.port);
    const health = await get(port, '/health', `${POD_IP_HOST}:9464`);
    expect(health.status).toBe(200);
    const ready = await get(port, '/ready', `${POD_IP_HOST}:9464`);
    expect(ready.status).toBe(200);
    expect(ready.body).toMatch(/session_store/);
    expect((await get(port, '/metrics', `${POD_IP_HOST}:9464`)).body).toMatch(/^# HELP /m);
  });

  it('does not serve MCP to a Host it was not configured for (why the probes use the management port)', async () => {
    const main = Number(new URL(server.url).port);
    const answer = await get(main, '/mcp', `${POD_IP_HOST}:3000`);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
  });

  it('serves an authenticated session to a client using the Ingress host, with the issuer the ConfigMap names', async () => {
    const host = config.MCP_ALLOWED_HOSTS.split(',')[0];
    const main = new URL(server.url);
    const client = new Client({ name: 'k8s-config-e2e', version: '1.0.0' });
    // The client connects to the process but names the Ingress host, as it would through the Ingress.
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { Authorization: `Bearer ${await issuer.mint()}` } },
        fetch: (url, init) => fetchWithHost(url, init, host, main),
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });
});

/** A GET with a chosen Host header (fetch cannot set Host). */
function get(port: number, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { Host: host } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => ok({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

/** fetch through node:http so that the Host header can name the Ingress host while the socket goes to loopback. */
function fetchWithHost(url: string | URL, init: RequestInit | undefined, host: string, target: URL): Promise<Response> {
  const u = new URL(url);
  const headers = Object.fromEntries(new Headers(init?.headers).entries());
  return new Promise((ok, fail) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: u.pathname + u.search,
        method: init?.method ?? 'GET',
        headers: { ...headers, host },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const responseHeaders = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) responseHeaders.set(k, String(v));
          ok(
            new Response(res.statusCode === 202 ? null : Buffer.concat(chunks), {
              status: res.statusCode,
              headers: responseHeaders,
            }),
          );
        });
      },
    );
    req.on('error', fail);
    if (typeof init?.body === 'string') req.write(init.body);
    req.end();
  });
}
