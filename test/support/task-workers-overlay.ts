import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { generatedEnv } from './deploy-secrets';
import { K8sResource, ROOT, checkKustomization, find } from './kubernetes';
import { Container, containerEnv } from './kubernetes-pods';

/* The task-workers component (deploy/kubernetes/components/task-workers) rendered over the base and the monitoring
   folder, as an app overlay takes it: what its two spec files read. */

export interface Probe {
  httpGet: { path: string; port: string | number };
}
export interface ServerContainer extends Container {
  startupProbe: Probe;
  livenessProbe: Probe;
  readinessProbe: Container['readinessProbe'] & Probe;
  lifecycle?: { preStop?: unknown };
  securityContext: Record<string, unknown>;
}
export interface Deployment extends K8sResource {
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
export interface NetworkPolicy extends K8sResource {
  spec: {
    podSelector: { matchLabels: Record<string, string> };
    policyTypes: string[];
    ingress: {
      from: { podSelector?: { matchLabels: Record<string, string> }; namespaceSelector?: unknown }[];
      ports: { port: string | number }[];
    }[];
  };
}
export interface Selecting extends K8sResource {
  spec: { selector: Record<string, string> | { matchLabels: Record<string, string> } };
}
export interface PodMonitor extends K8sResource {
  spec: {
    selector: { matchExpressions: { key: string; operator: string; values?: string[] }[] };
    podMetricsEndpoints: { port: string; path: string }[];
  };
}

/** An app overlay's image, which must reach both Deployments. */
export const IMAGE = 'registry.example.com/desk:1.2.3';

/** Renders the overlay in a temporary folder (removed by `cleanup`) and picks out what the specs read. */
export function renderTaskWorkers() {
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

  const cleanup = () => rmSync(overlay, { recursive: true, force: true });
  return {
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
    cleanup,
  };
}

/** Whether a replica with this environment runs tasks (MCP_TASK_WORKER not off). */
export const runsTasks = (env: Record<string, string>): boolean =>
  !/^(false|0|off)$/i.test(env.MCP_TASK_WORKER?.trim() ?? '');
