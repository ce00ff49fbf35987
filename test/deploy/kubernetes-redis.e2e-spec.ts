import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalRedis, bytes, flag, generatedEnv, startRedis, withoutSecrets } from '../support/deploy-secrets';
import { K8sResource, checkKustomization, find } from '../support/kubernetes';
import { allContainers, container, containerEnv, expand, podOf } from '../support/kubernetes-pods';
import { RunningServer, startDeskHttp } from '../support/server-process';

/**
 * The Kubernetes base's secrets and memory bounds: no secret value is rendered (the Secret mcp-server is created
 * from `npm run env:generate -- --kubernetes`), every container has a memory limit, and Redis requires the
 * Secret's password with maxmemory below its limit and noeviction. Then the base's Redis arguments run for real in
 * this machine's redis-server, with the variables the kubelet would put in, and a server connects with the
 * Secret's REDIS_URL. kubernetes-redis-tls.e2e-spec.ts covers the TLS component.
 */
describe('Kubernetes base: secrets and memory bounds', () => {
  const { resources, errors } = checkKustomization('deploy/kubernetes/base');
  const server = container(podOf(resources, 'Deployment', 'mcp-server'), 'server');
  const redisPod = podOf(resources, 'Deployment', 'redis');
  const redis = container(redisPod, 'redis');
  const exporter = container(redisPod, 'exporter');

  it('renders no Secret and no secret value: the pods need the Secret mcp-server, created outside the base', () => {
    expect(errors).toEqual([]);
    expect(resources.filter((r) => r.kind === 'Secret')).toEqual([]);
    expect(JSON.stringify(resources)).not.toMatch(/"(stringData|data)":\{[^}]*(PASSWORD|SECRET|REDIS_URL)/);
    // Not optional: without the Secret a pod stays in CreateContainerConfigError instead of running unkeyed.
    expect(server.envFrom).toContainEqual({ secretRef: { name: 'mcp-server' } });
    const refs = allContainers(resources).flatMap(([, c]) => (c.env ?? []).map((e) => e.valueFrom?.secretKeyRef));
    for (const ref of refs.filter(Boolean)) expect(ref).toEqual({ name: 'mcp-server', key: 'REDIS_PASSWORD' });
  });

  it('gives every container a memory limit at or above its request', () => {
    const containers = allContainers(resources);
    expect(containers.map(([name]) => name).sort()).toEqual([
      'Deployment/mcp-server/server',
      'Deployment/redis/exporter',
      'Deployment/redis/redis',
    ]);
    for (const [name, c] of containers) {
      const limit = c.resources?.limits?.memory;
      expect({ name, limit }).toEqual({ name, limit: expect.stringMatching(/^\d+Mi$/) });
      expect(bytes(limit!, 'kubernetes')).toBeGreaterThanOrEqual(
        bytes(c.resources?.requests?.memory ?? 0, 'kubernetes'),
      );
    }
  });

  it("Redis requires the Secret's password, keeps maxmemory below its limit and never evicts", () => {
    const args = redis.args!;
    expect(flag(args, '--requirepass')).toBe('$(REDIS_PASSWORD)');
    const password = redis.env!.find((e) => e.name === 'REDIS_PASSWORD')!;
    expect(password.valueFrom?.secretKeyRef).toEqual({ name: 'mcp-server', key: 'REDIS_PASSWORD' });
    expect(flag(args, '--maxmemory-policy')).toBe('noeviction');
    const maxmemory = bytes(flag(args, '--maxmemory')!, 'redis');
    const limit = bytes(redis.resources!.limits!.memory, 'kubernetes');
    expect(maxmemory).toBeLessThanOrEqual(limit * 0.85);
    expect(maxmemory).toBeGreaterThanOrEqual(limit * 0.5);
    expect(redis.readinessProbe?.exec?.command.join(' ')).toMatch(/redis-cli ping \| grep -q PONG/);
    expect(redis.env!.map((e) => e.name)).toContain('REDISCLI_AUTH');
  });

  it('exports redis_* metrics to the monitoring namespace only, with the same password', () => {
    expect(exporter.image).toMatch(/^oliver006\/redis_exporter:v\d+\.\d+\.\d+$/);
    expect(exporter.ports).toEqual([{ name: 'metrics', containerPort: 9121 }]);
    const env = containerEnv(exporter, { 'mcp-server': { REDIS_PASSWORD: 'p' } });
    expect(env).toEqual({ REDIS_ADDR: 'redis://localhost:6379', REDIS_PASSWORD: 'p' });
    const policy = find<K8sResource & { spec: { ingress: { from: unknown[]; ports: { port: unknown }[] }[] } }>(
      resources,
      'NetworkPolicy',
      'redis',
    );
    const toMetrics = policy.spec.ingress.filter((rule) => rule.ports.some((p) => p.port === 'metrics'));
    expect(toMetrics).toEqual([
      {
        from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }],
        ports: [{ port: 'metrics', protocol: 'TCP' }],
      },
    ]);
  });

  describe('run with the Secret `npm run env:generate -- --kubernetes` writes', () => {
    const secret = generatedEnv('--kubernetes').values;
    const secrets = { 'mcp-server': secret };
    let local: LocalRedis;
    let app: RunningServer | undefined;

    beforeAll(async () => {
      const env = containerEnv(redis, secrets);
      local = await startRedis(redis.args!.map((a) => expand(a, env)));
    });
    afterAll(async () => {
      await app?.stop();
      await local?.stop();
    });

    it('holds the three keys, REDIS_URL carrying the password to the redis Service', () => {
      expect(Object.keys(secret).sort()).toEqual(['MCP_REQUEST_STATE_SECRET', 'REDIS_PASSWORD', 'REDIS_URL']);
      const url = new URL(secret.REDIS_URL);
      const service = find<K8sResource & { spec: { ports: { port: number }[] } }>(resources, 'Service', 'redis');
      expect(url.protocol).toBe('redis:');
      expect(url.host).toBe(`redis:${service.spec.ports[0].port}`);
      expect(url.password).toBe(secret.REDIS_PASSWORD);
    });

    it('Redis refuses a client without the password and its readiness probe passes as the kubelet runs it', () => {
      expect(local.cli(['ping'])).toMatch(/^NOAUTH/);
      expect(local.cli(['config', 'get', 'maxmemory-policy'], secret.REDIS_PASSWORD)).toMatch(/noeviction$/);
      const real = spawnSync('sh', ['-c', 'command -v redis-cli'], { encoding: 'utf8' }).stdout.trim();
      const bin = mkdtempSync(join(tmpdir(), 'redis-cli-'));
      writeFileSync(join(bin, 'redis-cli'), `#!/bin/sh\nexec ${real} -p ${local.port} "$@"\n`);
      chmodSync(join(bin, 'redis-cli'), 0o755);
      try {
        const [command, ...args] = redis.readinessProbe!.exec!.command;
        const env = withoutSecrets({ ...containerEnv(redis, secrets), PATH: `${bin}:${process.env.PATH}` });
        expect(spawnSync(command, args, { env, timeout: 10_000 }).status).toBe(0);
        const { REDISCLI_AUTH: _, ...unauthenticated } = env;
        expect(spawnSync(command, args, { env: unauthenticated, timeout: 10_000 }).status).not.toBe(0);
      } finally {
        rmSync(bin, { recursive: true, force: true });
      }
    });

    it("a server with the Secret's REDIS_URL (the host pointed here) is ready", async () => {
      const env = containerEnv(server, secrets);
      const url = new URL(env.REDIS_URL);
      url.host = `127.0.0.1:${local.port}`;
      app = await startDeskHttp({
        MCP_STORE: 'redis',
        REDIS_URL: url.href,
        MCP_REQUEST_STATE_SECRET: env.MCP_REQUEST_STATE_SECRET,
      });
      expect((await fetch(new URL('/ready', app.url))).status).toBe(200);
    });
  });
});
