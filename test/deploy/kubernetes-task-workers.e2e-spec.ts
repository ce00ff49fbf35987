import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { SHUTDOWN_MARGIN_MS } from '@app/mcp/bootstrap/shutdown-deadline';
import { generatedEnv } from '../support/deploy-secrets';
import { K8sResource, ROOT, checkKustomization, find } from '../support/kubernetes';
import { Container, containerEnv } from '../support/kubernetes-pods';
import { MODERN_META, messagesOf, modernPost } from '../support/modern-post';
import { suiteRedis } from '../support/replicas';
import { DESK_MAIN, RunningServer, startHttpServer } from '../support/server-process';
import { TestIssuer } from '../support/test-issuer';
import { sleep } from '../support/wait';

/**
 * Tasks on a Deployment of their own: the component deploy/kubernetes/components/task-workers over the base (and
 * the monitoring folder, as an overlay that alerts takes them), rendered as an overlay would take it. The worker is
 * the base's server pod under another component label, which no Service selects; the base's replicas answer
 * requests only. Then for real: a desk replica with the rendered mcp-server's task settings and one with the
 * worker's, on the machine's Redis, where a task created through the first is run by the second.
 */
interface Probe {
  httpGet: { path: string; port: string | number };
}
interface ServerContainer extends Container {
  startupProbe: Probe;
  livenessProbe: Probe;
  readinessProbe: Container['readinessProbe'] & Probe;
  lifecycle?: { preStop?: unknown };
  securityContext: Record<string, unknown>;
}
interface Deployment extends K8sResource {
  spec: {
    replicas: number;
    selector: { matchLabels: Record<string, string> };
    template: {
      metadata: { labels: Record<string, string> };
      spec: {
        serviceAccountName: string;
        automountServiceAccountToken: boolean;
        terminationGracePeriodSeconds: number;
        securityContext: Record<string, unknown>;
        containers: ServerContainer[];
        volumes: unknown[];
      };
    };
  };
}
interface NetworkPolicy extends K8sResource {
  spec: {
    podSelector: { matchLabels: Record<string, string> };
    policyTypes: string[];
    ingress: {
      from: { podSelector?: { matchLabels: Record<string, string> }; namespaceSelector?: unknown }[];
      ports: { port: string | number }[];
    }[];
  };
}
interface Selecting extends K8sResource {
  spec: { selector: Record<string, string> | { matchLabels: Record<string, string> } };
}
interface PodMonitor extends K8sResource {
  spec: {
    selector: { matchExpressions: { key: string; operator: string; values?: string[] }[] };
    podMetricsEndpoints: { port: string; path: string }[];
  };
}

/** Whether a label selector (matchLabels, or a Service's plain map) selects a pod with `labels`. */
const selects = (selector: Record<string, string>, labels: Record<string, string>): boolean =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);
const matchLabels = (s: Selecting['spec']['selector']): Record<string, string> =>
  'matchLabels' in s && typeof s.matchLabels === 'object' ? s.matchLabels : (s as Record<string, string>);
/** Whether `matchExpressions` select a pod with `labels` (an unknown operator throws rather than passes). */
function matchesExpressions(
  expressions: PodMonitor['spec']['selector']['matchExpressions'],
  labels: Record<string, string>,
): boolean {
  return expressions.every(({ key, operator, values = [] }) => {
    if (operator === 'In') return key in labels && values.includes(labels[key]);
    if (operator === 'NotIn') return !(key in labels) || !values.includes(labels[key]);
    if (operator === 'Exists') return key in labels;
    if (operator === 'DoesNotExist') return !(key in labels);
    throw new Error(`unknown selector operator ${operator}`);
  });
}
/** `MCP_TASK_WORKER` as the library reads it (tasks-options.resolver.ts): anything but false/0/off is on. */
const runsTasks = (env: Record<string, string>): boolean => !/^(false|0|off)$/i.test(env.MCP_TASK_WORKER?.trim() ?? '');

describe('Kubernetes: the task-workers component', () => {
  const IMAGE = 'registry.example.com/desk:1.2.3';
  const overlay = mkdtempSync(join(tmpdir(), 'k8s-task-workers-'));
  const path = (p: string) => relative(overlay, join(ROOT, p));
  writeFileSync(
    join(overlay, 'kustomization.yaml'),
    [
      'resources:',
      `  - ${path('deploy/kubernetes/base')}`,
      `  - ${path('deploy/kubernetes/monitoring')}`,
      'components:',
      `  - ${path('deploy/kubernetes/components/task-workers')}`,
      // An app overlay's image, which must reach both Deployments.
      'images:',
      '  - name: mcp-server',
      `    newName: ${IMAGE.split(':')[0]}`,
      `    newTag: '${IMAGE.split(':')[1]}'`,
      '',
    ].join('\n'),
  );
  const { resources, errors } = checkKustomization(overlay);
  afterAll(() => rmSync(overlay, { recursive: true, force: true }));
  const serverDeployment = find<Deployment>(resources, 'Deployment', 'mcp-server');
  const workerDeployment = find<Deployment>(resources, 'Deployment', 'mcp-worker');
  const serverPod = serverDeployment.spec.template;
  const workerPod = workerDeployment.spec.template;
  const [server] = serverPod.spec.containers;
  const [worker] = workerPod.spec.containers;
  const config = find<K8sResource & { data: Record<string, string> }>(resources, 'ConfigMap', 'mcp-server').data;
  const secret = generatedEnv('--kubernetes').values;
  /** A container's environment as the kubelet makes it: the ConfigMap, the Secret, then its own env. */
  const podEnv = (c: Container): Record<string, string> => ({
    ...config,
    ...containerEnv(c, { 'mcp-server': secret }),
  });

  it('renders over the base; only the Prometheus Operator kinds lack a built-in schema', () => {
    expect(errors).toEqual([
      'PodMonitor/mcp-server: monitoring.coreos.com/v1 PodMonitor: no Kubernetes schema for this kind',
      'PrometheusRule/mcp-server: monitoring.coreos.com/v1 PrometheusRule: no Kubernetes schema for this kind',
    ]);
    expect(workerDeployment.metadata.labels).toMatchObject({ 'app.kubernetes.io/part-of': 'mcp' });
    expect(workerDeployment.spec.replicas).toBeGreaterThanOrEqual(2);
  });

  it('labels the worker pods "worker": no Service, Ingress or server selector reaches them', () => {
    const labels = workerPod.metadata.labels;
    expect(labels).toMatchObject({ 'app.kubernetes.io/name': 'mcp-server', 'app.kubernetes.io/component': 'worker' });
    expect(selects(workerDeployment.spec.selector.matchLabels, labels)).toBe(true);
    // The two Deployments never claim each other's pods.
    expect(selects(serverDeployment.spec.selector.matchLabels, labels)).toBe(false);
    expect(selects(workerDeployment.spec.selector.matchLabels, serverPod.metadata.labels)).toBe(false);
    const services = resources.filter((r): r is Selecting => r.kind === 'Service');
    expect(services.map((s) => s.metadata.name).sort()).toEqual(['mcp-server', 'mcp-server-management', 'redis']);
    for (const service of services)
      expect({ service: service.metadata.name, selects: selects(matchLabels(service.spec.selector), labels) }).toEqual({
        service: service.metadata.name,
        selects: false,
      });
    // The Ingress routes to the Service mcp-server only (kubernetes-base.e2e-spec.ts), which selects servers only.
    expect(
      selects(
        matchLabels(find<Selecting>(resources, 'Service', 'mcp-server').spec.selector),
        serverPod.metadata.labels,
      ),
    ).toBe(true);
  });

  it("runs the server's image, ConfigMap, Secret, service account, security context, limits and volumes", () => {
    expect(worker.image).toBe(IMAGE);
    expect(server.image).toBe(IMAGE);
    expect(worker.envFrom).toEqual(server.envFrom);
    expect(worker.envFrom).toEqual([{ configMapRef: { name: 'mcp-server' } }, { secretRef: { name: 'mcp-server' } }]);
    expect(worker.ports).toEqual(server.ports);
    expect(worker.securityContext).toEqual(server.securityContext);
    expect(worker.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
    expect(worker.resources).toEqual(server.resources);
    expect(worker.resources?.limits?.memory).toBeDefined();
    expect(worker.volumeMounts).toEqual(server.volumeMounts);
    const pod = ({
      serviceAccountName,
      automountServiceAccountToken,
      securityContext,
      volumes,
    }: typeof workerPod.spec) => ({
      serviceAccountName,
      automountServiceAccountToken,
      securityContext,
      volumes,
    });
    expect(pod(workerPod.spec)).toEqual(pod(serverPod.spec));
    expect(workerPod.spec.securityContext).toMatchObject({ runAsNonRoot: true });
  });

  it('probes /health and /ready on the management port as the base does, and drains within its grace period', () => {
    for (const probe of ['startupProbe', 'livenessProbe', 'readinessProbe'] as const)
      expect(worker[probe]).toEqual(server[probe]);
    expect(worker.readinessProbe.httpGet).toEqual({ path: '/ready', port: 'management' });
    expect(worker.ports?.find((p) => p.name === 'management')?.containerPort).toBe(Number(config.MCP_METRICS_PORT));
    // SIGTERM: runs under way get MCP_SHUTDOWN_GRACE_MS, the server exits at most its margin later; the kubelet's
    // SIGKILL must come after that. No preStop: no endpoint list has to forget the worker first.
    const drainMs = Number(podEnv(worker).MCP_SHUTDOWN_GRACE_MS ?? 10_000);
    expect(worker.lifecycle?.preStop).toBeUndefined();
    expect(workerPod.spec.terminationGracePeriodSeconds * 1000).toBeGreaterThanOrEqual(
      drainMs + SHUTDOWN_MARGIN_MS + 5_000,
    );
  });

  it("turns the replicas' worker off (their env; the shared ConfigMap leaves it alone) and keeps the worker on", () => {
    expect(config).not.toHaveProperty('MCP_TASK_WORKER');
    const serverEnv = podEnv(server);
    const workerEnv = podEnv(worker);
    expect(serverEnv.MCP_TASK_WORKER).toBe('false');
    expect(runsTasks(serverEnv)).toBe(false);
    expect(workerEnv.MCP_TASK_WORKER).not.toBe('false');
    expect(runsTasks(workerEnv)).toBe(true);
    // Both on the same Redis store (the queue is there), each pod named in its traces.
    for (const env of [serverEnv, workerEnv]) {
      expect(env).toMatchObject({ MCP_STORE: 'redis', REDIS_URL: secret.REDIS_URL });
      expect(env.OTEL_RESOURCE_ATTRIBUTES).toBe('service.instance.id=$(POD_NAME)');
    }
  });

  it('lets the worker reach Redis, Prometheus reach its management port, and nothing reach its MCP port', () => {
    const labels = workerPod.metadata.labels;
    const redis = find<NetworkPolicy>(resources, 'NetworkPolicy', 'redis');
    const toRedis = redis.spec.ingress.filter((rule) => rule.ports.some((p) => p.port === 6379));
    expect(toRedis).toHaveLength(1);
    const admitted = toRedis[0].from.map((f) => f.podSelector?.matchLabels ?? {});
    expect(admitted.some((s) => selects(s, labels))).toBe(true);
    expect(admitted.some((s) => selects(s, serverPod.metadata.labels))).toBe(true);
    // The base's policy (MCP port from the ingress controller) does not apply to the worker; its own admits
    // the monitoring namespace on the management port and nothing else.
    const serverPolicy = find<NetworkPolicy>(resources, 'NetworkPolicy', 'mcp-server');
    expect(selects(serverPolicy.spec.podSelector.matchLabels, labels)).toBe(false);
    const policies = resources
      .filter((r): r is NetworkPolicy => r.kind === 'NetworkPolicy')
      .filter((p) => selects(p.spec.podSelector.matchLabels, labels));
    expect(policies.map((p) => p.metadata.name)).toEqual(['mcp-worker']);
    expect(policies[0].spec.policyTypes).toEqual(['Ingress']);
    expect(policies[0].spec.ingress).toEqual([
      {
        from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }],
        ports: [{ port: 'management', protocol: 'TCP' }],
      },
    ]);
  });

  it('is scraped by the PodMonitor on its management port and kept one-at-a-time in disruptions', () => {
    const monitor = find<PodMonitor>(resources, 'PodMonitor', 'mcp-server');
    const labels = workerPod.metadata.labels;
    expect(matchesExpressions(monitor.spec.selector.matchExpressions, labels)).toBe(true);
    const port = monitor.spec.podMetricsEndpoints.find((e) => e.port === 'management');
    expect(port).toMatchObject({ path: '/metrics' });
    expect(worker.ports?.map((p) => p.name)).toContain('management');
    const budgets = resources
      .filter((r): r is Selecting & { spec: { maxUnavailable: number } } => r.kind === 'PodDisruptionBudget')
      .filter((b) => selects(matchLabels(b.spec.selector), labels));
    expect(budgets.map((b) => [b.metadata.name, b.spec.maxUnavailable])).toEqual([['mcp-worker', 1]]);
    // The autoscaler stays on the request replicas (CPU says little about a queue).
    const hpa = find<K8sResource & { spec: { scaleTargetRef: { name: string } } }>(
      resources,
      'HorizontalPodAutoscaler',
      'mcp-server',
    );
    expect(hpa.spec.scaleTargetRef.name).toBe('mcp-server');
  });

  /**
   * The rendered task settings of each Deployment (the store, the worker switch, the drain) on the desk fixture,
   * with the machine's Redis under this suite's key prefix standing in for the Secret's REDIS_URL.
   */
  describe('run: a replica with the rendered mcp-server settings and one with the mcp-worker settings', () => {
    const { prefix, cleanup } = suiteRedis();
    const taskSettings = (c: Container): Record<string, string> =>
      Object.fromEntries(Object.entries(podEnv(c)).filter(([k]) => /^MCP_(STORE|TASK_\w+|SHUTDOWN_GRACE_MS)$/.test(k)));
    const local = { MCP_REDIS_PREFIX: prefix, DESK_TASK_TOOLS: 'on' };
    let issuer: TestIssuer;
    let front: RunningServer | undefined;
    let runner: RunningServer | undefined;
    let token: string;

    beforeAll(async () => {
      issuer = await TestIssuer.start();
      token = await issuer.mint({ sub: 'alice' });
      [front, runner] = await Promise.all([
        startHttpServer(DESK_MAIN, { ...issuer.env(), ...taskSettings(server), ...local }),
        startHttpServer(DESK_MAIN, { ...issuer.env(), ...taskSettings(worker), ...local }),
      ]);
    }, 60_000);
    afterAll(async () => {
      await Promise.all([front?.stop(), runner?.stop()]);
      await issuer?.close();
      await cleanup();
    });

    it('the settings are the ones the overlay renders', () => {
      expect(taskSettings(server)).toEqual({ MCP_STORE: 'redis', MCP_TASK_WORKER: 'false' });
      expect(taskSettings(worker)).toMatchObject({ MCP_STORE: 'redis' });
      expect(runsTasks(taskSettings(worker))).toBe(true);
    });

    it('a task created through the request replica is run by the worker', async () => {
      const tasks = {
        ...MODERN_META,
        'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
      };
      const rpc = async (method: string, params: Record<string, unknown>) => {
        const res = await modernPost(front!.url, method, params, { token, meta: tasks });
        const [message] = await messagesOf(res);
        return message as { result?: any; error?: unknown };
      };
      const created = await rpc('tools/call', { name: 'bulk_export', arguments: { steps: 3, stepMs: 50 } });
      expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
      const { taskId } = created.result as { taskId: string };
      let task: any;
      for (const deadline = Date.now() + 20_000; Date.now() < deadline; await sleep(100)) {
        task = (await rpc('tasks/get', { taskId })).result;
        if (['completed', 'failed', 'cancelled'].includes(task?.status)) break;
      }
      expect(task).toMatchObject({ status: 'completed', result: { structuredContent: { exported: 3, task: taskId } } });
      expect(task.result.structuredContent.by).toBe(runner!.process.pid);
      expect(task.result.structuredContent.by).not.toBe(front!.process.pid);
    }, 40_000);

    it('a request-only replica without the Redis store stops at boot, naming the Redis store', async () => {
      const boot = startHttpServer(DESK_MAIN, { ...issuer.env(), ...taskSettings(server), MCP_STORE: 'memory' });
      await expect(boot).rejects.toThrow(/server exited with [1-9][\s\S]*MCP_TASK_WORKER[\s\S]*needs the Redis store/);
    }, 30_000);
  });
});
