import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { K8sResource, checkKustomization, find } from '../support/kubernetes';

/**
 * The Kubernetes base every app overlays (deploy/kubernetes/base), rendered with kustomize and validated against
 * the Kubernetes schemas by the project's checker; then what the schemas cannot say: the parts point at each
 * other, the probes and metrics stay on the management port, nothing pins a session to a pod.
 * kubernetes-config.e2e-spec.ts boots a server with the base's configuration.
 */
interface Container {
  image: string;
  ports: { name: string; containerPort: number }[];
  envFrom: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  startupProbe: Probe;
  livenessProbe: Probe;
  readinessProbe: Probe;
  lifecycle: { preStop: { sleep?: { seconds: number } } };
  securityContext: { readOnlyRootFilesystem: boolean; allowPrivilegeEscalation: boolean };
}
interface Probe {
  httpGet: { path: string; port: string | number };
}
interface Deployment extends K8sResource {
  spec: {
    selector: { matchLabels: Record<string, string> };
    template: {
      metadata: { labels: Record<string, string> };
      spec: {
        terminationGracePeriodSeconds: number;
        automountServiceAccountToken: boolean;
        securityContext: { runAsNonRoot: boolean };
        containers: Container[];
      };
    };
  };
}
interface Service extends K8sResource {
  spec: { selector: Record<string, string>; sessionAffinity?: string; ports: { port: number; targetPort: string }[] };
}
interface NetworkPolicy extends K8sResource {
  spec: {
    podSelector: { matchLabels: Record<string, string> };
    ingress: { from: Record<string, { matchLabels: Record<string, string> }>[]; ports: { port: string | number }[] }[];
  };
}

describe('Kubernetes base (deploy/kubernetes/base)', () => {
  const { status, resources, errors } = checkKustomization('deploy/kubernetes/base');
  const deployment = find<Deployment>(resources, 'Deployment', 'mcp-server');
  const pod = deployment.spec.template;
  const server = pod.spec.containers[0];
  const config = find<K8sResource & { data: Record<string, string> }>(resources, 'ConfigMap', 'mcp-server').data;
  const portNumber = (name: string | number): number =>
    typeof name === 'number' ? name : server.ports.find((p) => p.name === name)!.containerPort;

  it('renders with kustomize and every resource passes the Kubernetes schemas', () => {
    expect(errors).toEqual([]);
    expect(status).toBe(0);
    expect(resources.map((r) => `${r.apiVersion} ${r.kind}`).sort()).toEqual(
      expect.arrayContaining([
        'apps/v1 Deployment',
        'v1 Service',
        'autoscaling/v2 HorizontalPodAutoscaler',
        'policy/v1 PodDisruptionBudget',
        'networking.k8s.io/v1 NetworkPolicy',
        'networking.k8s.io/v1 Ingress',
        'v1 ConfigMap',
      ]),
    );
  });

  it('probes /health for liveness and /ready for readiness on the management port, where metrics are', () => {
    expect(server.livenessProbe.httpGet.path).toBe('/health');
    expect(server.startupProbe.httpGet.path).toBe('/health');
    expect(server.readinessProbe.httpGet.path).toBe('/ready');
    for (const probe of [server.livenessProbe, server.readinessProbe, server.startupProbe]) {
      expect(portNumber(probe.httpGet.port)).toBe(Number(config.MCP_METRICS_PORT));
    }
    expect(portNumber('http')).toBe(3000);
  });

  it('takes its settings from the ConfigMap and the Secret, in the production configuration on Redis', () => {
    const refs = server.envFrom.map((e) => e.configMapRef?.name ?? e.secretRef?.name);
    expect(refs).toEqual(['mcp-server', 'mcp-server']);
    expect(config).toMatchObject({ MCP_STORE: 'redis', MCP_METRICS_PORT: '9464' });
    for (const key of ['MCP_JWT_ISSUER', 'MCP_JWKS_URI', 'MCP_JWT_AUDIENCE'])
      expect(config[key]).toMatch(/^https:\/\//);
    // The Secret (REDIS_URL and the other secrets) is created outside the base: kubernetes-redis.e2e-spec.ts.
    expect(Object.keys(config).filter((k) => /PASSWORD|SECRET|REDIS_URL/.test(k))).toEqual([]);
  });

  it('drains within the grace period and runs as a non-root, read-only, unprivileged pod', () => {
    const preStop = server.lifecycle.preStop.sleep!.seconds;
    // preStop + the server's default drain (10 s) must fit, or the kubelet kills calls mid-drain.
    expect(pod.spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(preStop + 10 + 5);
    expect(pod.spec.securityContext.runAsNonRoot).toBe(true);
    expect(pod.spec.automountServiceAccountToken).toBe(false);
    expect(server.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
    // The image's own command runs, with the project's Node flags (scripts/lib/node-flags.mjs): nothing overrides it.
    expect(server).not.toHaveProperty('command');
    expect(server).not.toHaveProperty('args');
  });

  it('routes only the MCP port through the Service and Ingress, with no session affinity', () => {
    expect(deployment.spec.selector.matchLabels).toEqual(
      expect.objectContaining(Object.fromEntries(Object.entries(pod.metadata.labels))),
    );
    const service = find<Service>(resources, 'Service', 'mcp-server');
    expect(service.spec.sessionAffinity ?? 'None').toBe('None');
    expect(service.spec.ports.map((p) => p.targetPort)).toEqual(['http']);
    expect(service.spec.selector).toEqual(deployment.spec.selector.matchLabels);
    const ingress = find<K8sResource & { spec: { rules: { http: { paths: Backend[] } }[] } }>(
      resources,
      'Ingress',
      'mcp-server',
    );
    const backends = ingress.spec.rules.flatMap((r) => r.http.paths.map((p) => p.backend.service));
    expect(backends).toEqual([{ name: 'mcp-server', port: { name: 'http' } }]);
  });

  it('lets only Prometheus reach the management port and only the replicas reach Redis', () => {
    const policy = find<NetworkPolicy>(resources, 'NetworkPolicy', 'mcp-server');
    expect(policy.spec.podSelector.matchLabels).toEqual(deployment.spec.selector.matchLabels);
    const byPort = (port: string): NetworkPolicy['spec']['ingress'] =>
      policy.spec.ingress.filter((rule) => rule.ports.some((p) => p.port === port));
    const [toMcp] = byPort('http');
    const [toManagement] = byPort('management');
    expect(byPort('management')).toHaveLength(1);
    expect(toManagement).not.toBe(toMcp);
    expect(toManagement.from).toEqual([
      { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } },
    ]);
    expect(JSON.stringify(toMcp.from)).not.toContain('monitoring');
    const redis = find<NetworkPolicy>(resources, 'NetworkPolicy', 'redis');
    // The Redis port; the exporter's metrics port is for monitoring only (kubernetes-redis.e2e-spec.ts).
    expect(redis.spec.ingress.filter((rule) => rule.ports.some((p) => p.port === 6379))).toEqual([
      {
        from: [{ podSelector: { matchLabels: deployment.spec.selector.matchLabels } }],
        ports: [{ port: 6379, protocol: 'TCP' }],
      },
    ]);
    expect(redis.spec.ingress).toHaveLength(2);
  });

  it('scales the Deployment from two replicas and keeps all but one through disruptions', () => {
    const hpa = find<K8sResource & { spec: { scaleTargetRef: { kind: string; name: string }; minReplicas: number } }>(
      resources,
      'HorizontalPodAutoscaler',
      'mcp-server',
    );
    expect(hpa.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'mcp-server' });
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
    const pdb = find<K8sResource & { spec: { maxUnavailable: number; selector: { matchLabels: object } } }>(
      resources,
      'PodDisruptionBudget',
      'mcp-server',
    );
    expect(pdb.spec).toEqual({ maxUnavailable: 1, selector: { matchLabels: deployment.spec.selector.matchLabels } });
  });
});

describe('the Kubernetes checker', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'k8s-check-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function kustomization(manifest: string): string {
    writeFileSync(join(dir, 'kustomization.yaml'), 'resources:\n  - manifest.yaml\n');
    writeFileSync(join(dir, 'manifest.yaml'), manifest);
    return dir;
  }

  it('refuses a resource that breaks its schema, naming the field', () => {
    const result = checkKustomization(
      kustomization(`apiVersion: v1
kind: Service
metadata:
  name: broken
spec:
  ports:
    - port: eighty
`),
    );
    expect(result.status).toBe(1);
    expect(result.errors.join('\n')).toMatch(/Service\/broken: .*spec\/ports\/0\/port must be integer/);
  });

  it('refuses a kind it has no schema for, and a kustomization that does not render', () => {
    const unknown = checkKustomization(
      kustomization('apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n'),
    );
    expect(unknown.status).toBe(1);
    expect(unknown.errors.join('\n')).toContain('no Kubernetes schema');
    writeFileSync(join(dir, 'kustomization.yaml'), 'resources:\n  - missing.yaml\n');
    const broken = checkKustomization(dir);
    expect(broken.status).toBe(1);
    expect(broken.errors.join('\n')).toContain('kustomize build');
  });
});

interface Backend {
  backend: { service: { name: string; port: { name?: string; number?: number } } };
}
