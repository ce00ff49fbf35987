import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { LocalRedis, flag, generatedEnv, startRedis } from '../support/deploy-secrets';
import { K8sResource, ROOT, checkKustomization, find } from '../support/kubernetes';
import { container, containerEnv, expand, podOf } from '../support/kubernetes-pods';
import { RunningServer, startDeskHttp } from '../support/server-process';

/**
 * Redis TLS where the cluster has cert-manager: the component deploy/kubernetes/components/redis-tls over the base,
 * rendered as an overlay would take it. Then for real: a CA and a server certificate made here stand in for what
 * cert-manager writes to the Secret redis-tls; redis-server runs the rendered arguments (the /tls paths pointed at
 * them), and a server with the Secret's rediss:// URL connects trusting the CA through NODE_EXTRA_CA_CERTS only.
 */
describe('Kubernetes: the redis-tls component', () => {
  const overlay = mkdtempSync(join(tmpdir(), 'k8s-redis-tls-'));
  writeFileSync(
    join(overlay, 'kustomization.yaml'),
    [
      'resources:',
      `  - ${relative(overlay, join(ROOT, 'deploy/kubernetes/base'))}`,
      'components:',
      `  - ${relative(overlay, join(ROOT, 'deploy/kubernetes/components/redis-tls'))}`,
      '',
    ].join('\n'),
  );
  const { resources, errors } = checkKustomization(overlay);
  afterAll(() => rmSync(overlay, { recursive: true, force: true }));
  const redisPod = podOf(resources, 'Deployment', 'redis');
  const redis = container(redisPod, 'redis');
  const serverPod = podOf(resources, 'Deployment', 'mcp-server');
  const server = container(serverPod, 'server');

  it('renders over the base; only the cert-manager Certificate is a kind without a built-in schema', () => {
    expect(errors).toEqual([
      'Certificate/redis-tls: cert-manager.io/v1 Certificate: no Kubernetes schema for this kind',
    ]);
    const certificate = find<K8sResource & { spec: { secretName: string; dnsNames: string[] } }>(
      resources,
      'Certificate',
      'redis-tls',
    );
    // The names the replicas (the Service) and the probe and exporter (in the pod) connect with.
    expect(certificate.spec.dnsNames).toEqual(expect.arrayContaining(['redis', 'localhost']));
    expect(redisPod.spec.volumes).toContainEqual({ name: 'tls', secret: { secretName: certificate.spec.secretName } });
  });

  it('serves TLS only on 6379 and keeps the password, maxmemory and noeviction', () => {
    const args = redis.args!;
    expect(flag(args, '--port')).toBe('0');
    expect(flag(args, '--tls-port')).toBe('6379');
    expect(flag(args, '--tls-auth-clients')).toBe('no');
    expect(flag(args, '--requirepass')).toBe('$(REDIS_PASSWORD)');
    expect(flag(args, '--maxmemory-policy')).toBe('noeviction');
    for (const file of ['--tls-cert-file', '--tls-key-file', '--tls-ca-cert-file'])
      expect(flag(args, file)).toMatch(/^\/tls\//);
    expect(redis.volumeMounts).toContainEqual({ name: 'tls', mountPath: '/tls', readOnly: true });
    expect(redis.readinessProbe!.exec!.command.join(' ')).toMatch(/redis-cli --tls --cacert \/tls\/ca\.crt .*PONG/);
    const exporter = containerEnv(container(redisPod, 'exporter'), { 'mcp-server': { REDIS_PASSWORD: 'p' } });
    expect(exporter).toMatchObject({
      REDIS_ADDR: 'rediss://localhost:6379',
      REDIS_EXPORTER_TLS_CA_CERT_FILE: '/tls/ca.crt',
    });
  });

  it("gives the replicas the CA only (no private key), through Node's NODE_EXTRA_CA_CERTS", () => {
    const env = Object.fromEntries(server.env!.map((e) => [e.name, e.value]));
    expect(env.NODE_EXTRA_CA_CERTS).toBe('/etc/redis-ca/ca.crt');
    expect(server.volumeMounts).toContainEqual({ name: 'redis-ca', mountPath: '/etc/redis-ca', readOnly: true });
    expect(serverPod.spec.volumes).toContainEqual({
      name: 'redis-ca',
      secret: { secretName: 'redis-tls', items: [{ key: 'ca.crt', path: 'ca.crt' }] },
    });
  });

  describe('run with a CA and certificate made here, and the Secret of `env:generate -- --kubernetes --tls`', () => {
    const secret = generatedEnv('--kubernetes', '--tls').values;
    let tls: string;
    let local: LocalRedis;
    let app: RunningServer | undefined;

    beforeAll(async () => {
      tls = makeCertificates(['redis', 'localhost']);
      const env = containerEnv(redis, { 'mcp-server': secret });
      local = await startRedis(
        redis.args!.map((a) => expand(a, env).replace(/^\/tls\//, `${tls}/`)),
        { tls: true },
      );
    });
    afterEach(async () => {
      await app?.stop();
      app = undefined;
    });
    afterAll(async () => {
      await local?.stop();
      rmSync(tls, { recursive: true, force: true });
    });

    /** The Secret's REDIS_URL with the host "localhost" (in the certificate) and this Redis's port. */
    const redisUrl = (): string => {
      const url = new URL(secret.REDIS_URL);
      expect(url.protocol).toBe('rediss:');
      url.host = `localhost:${local.port}`;
      return url.href;
    };

    it('a server that trusts the CA through NODE_EXTRA_CA_CERTS is ready', async () => {
      app = await startDeskHttp({
        MCP_STORE: 'redis',
        REDIS_URL: redisUrl(),
        MCP_REQUEST_STATE_SECRET: secret.MCP_REQUEST_STATE_SECRET,
        NODE_EXTRA_CA_CERTS: join(tls, 'ca.crt'),
      });
      expect((await fetch(new URL('/ready', app.url))).status).toBe(200);
    });

    it('without the CA the certificate is not trusted and the server is not ready', async () => {
      app = await startDeskHttp({ MCP_STORE: 'redis', REDIS_URL: redisUrl(), NODE_EXTRA_CA_CERTS: '' });
      expect((await fetch(new URL('/ready', app.url))).status).toBe(503);
    });
  });
});

describe('Kubernetes: the redis-tls component with the task workers', () => {
  const overlay = mkdtempSync(join(tmpdir(), 'k8s-redis-tls-workers-'));
  const component = (name: string) => `  - ${relative(overlay, join(ROOT, `deploy/kubernetes/components/${name}`))}`;
  writeFileSync(
    join(overlay, 'kustomization.yaml'),
    [
      'resources:',
      `  - ${relative(overlay, join(ROOT, 'deploy/kubernetes/base'))}`,
      'components:',
      component('task-workers'),
      component('redis-tls'),
      '',
    ].join('\n'),
  );
  const { resources } = checkKustomization(overlay);
  afterAll(() => rmSync(overlay, { recursive: true, force: true }));

  it('gives Redis’s CA to the workers as to the request replicas (task-workers listed first)', () => {
    for (const name of ['mcp-server', 'mcp-worker']) {
      const pod = podOf(resources, 'Deployment', name);
      const server = container(pod, 'server');
      expect(server.env).toContainEqual({ name: 'NODE_EXTRA_CA_CERTS', value: '/etc/redis-ca/ca.crt' });
      expect(server.volumeMounts).toContainEqual({ name: 'redis-ca', mountPath: '/etc/redis-ca', readOnly: true });
      expect(pod.spec.volumes).toContainEqual(expect.objectContaining({ name: 'redis-ca' }));
    }
    // The selector names the app's Deployments only: Redis's own pod gets no server container.
    expect(podOf(resources, 'Deployment', 'redis').spec.containers.map((c: { name: string }) => c.name)).not.toContain(
      'server',
    );
  });
});

/** A CA and a server certificate for `names` in a new folder, as cert-manager writes them (ca.crt, tls.*). */
function makeCertificates(names: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'redis-tls-'));
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '1', '-subj', '/CN=test redis CA');
  openssl('req', ...ec, '-keyout', 'tls.key', '-out', 'tls.csr', '-subj', `/CN=${names[0]}`);
  writeFileSync(join(dir, 'san.ext'), `subjectAltName=${names.map((n) => `DNS:${n}`).join(',')}\n`);
  openssl(
    'x509',
    '-req',
    '-in',
    'tls.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '1',
    '-extfile',
    'san.ext',
    '-out',
    'tls.crt',
  );
  return dir;
}
