import { K8sResource, find } from './kubernetes';

/** The parts of a container the deployment tests read. */
export interface Container {
  name: string;
  image: string;
  args?: string[];
  env?: {
    name: string;
    value?: string;
    valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
  }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string; optional?: boolean } }[];
  ports?: { name: string; containerPort: number }[];
  readinessProbe?: { exec?: { command: string[] } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
}

export interface PodTemplate {
  metadata: { labels: Record<string, string> };
  spec: {
    containers: Container[];
    volumes?: { name: string; secret?: { secretName: string; items?: { key: string; path: string }[] } }[];
  };
}

/** The pod template of a Deployment (or any workload with spec.template). */
export function podOf(resources: K8sResource[], kind: string, name: string): PodTemplate {
  return find<K8sResource & { spec: { template: PodTemplate } }>(resources, kind, name).spec.template;
}

/** Every container of every workload, named `Kind/name/container`. */
export function allContainers(resources: K8sResource[]): [string, Container][] {
  return resources
    .filter((r) => (r.spec as { template?: PodTemplate } | undefined)?.template?.spec?.containers)
    .flatMap((r) =>
      (r.spec as { template: PodTemplate }).template.spec.containers.map(
        (c) => [`${r.kind}/${r.metadata.name}/${c.name}`, c] as [string, Container],
      ),
    );
}

export const container = (pod: PodTemplate, name: string): Container => {
  const found = pod.spec.containers.find((c) => c.name === name);
  if (!found) throw new Error(`no container ${name} in ${pod.spec.containers.map((c) => c.name).join(', ')}`);
  return found;
};

/**
 * A container's environment as the kubelet makes it from Secrets (`secrets`: the Secret's keys by name): values,
 * secretKeyRef (a missing Secret or key throws, as the kubelet refuses to start the container), `$(VAR)` expanded
 * from variables defined earlier in the list.
 */
export function containerEnv(c: Container, secrets: Record<string, Record<string, string>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const source of c.envFrom ?? []) {
    if (!source.secretRef) continue;
    const secret = secrets[source.secretRef.name];
    if (!secret) throw new Error(`secret "${source.secretRef.name}" not found`);
    Object.assign(env, secret);
  }
  for (const entry of c.env ?? []) {
    const ref = entry.valueFrom?.secretKeyRef;
    if (ref) {
      const value = secrets[ref.name]?.[ref.key];
      if (value === undefined) throw new Error(`secret "${ref.name}" has no key ${ref.key}`);
      env[entry.name] = value;
    } else if (entry.value !== undefined) env[entry.name] = expand(entry.value, env);
  }
  return env;
}

/** `$(VAR)` in a container's args or env value, as the kubelet expands it (unknown names stay as written). */
export const expand = (text: string, env: Record<string, string>): string =>
  text.replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (whole, name: string) => env[name] ?? whole);
