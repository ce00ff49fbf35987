import { SHUTDOWN_MARGIN_MS } from '@app/mcp/tooling';
import { K8sResource, find } from '../support/kubernetes';
import {
  IMAGE,
  NetworkPolicy,
  PodMonitor,
  Selecting,
  renderTaskWorkers,
  runsTasks,
} from '../support/task-workers-overlay';

/**
 * Tasks on a Deployment of their own: the component deploy/kubernetes/components/task-workers over the base (and
 * the monitoring folder, as an overlay that alerts takes them), rendered as an overlay would take it. The worker is
 * the base's server pod under another component label, which no Service selects; the base's replicas answer
 * requests only. A real run of the rendered settings is in kubernetes-task-workers-run.e2e-spec.ts.
 */
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

describe('Kubernetes: the task-workers component', () => {
  const rendered = renderTaskWorkers();
  const {
    resources,
    errors,
    serverDeployment,
    workerDeployment,
    serverPod,
    workerPod,
    server,
    worker,
    config,
    secret,
    podEnv,
  } = rendered;
  afterAll(() => rendered.cleanup());

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
    // The image's own command, with the project's Node flags, as the server's: nothing overrides it.
    expect(worker).not.toHaveProperty('command');
    expect(worker).not.toHaveProperty('args');
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
});
