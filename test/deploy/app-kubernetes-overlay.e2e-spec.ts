import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AppProject, eachApp } from '../support/apps';
import { K8sResource, ROOT, checkKustomization, find } from '../support/kubernetes';

/** Each app's Kubernetes overlay (apps/<app>/deploy/kubernetes) over the shared base, as `kubectl apply -k` sees it. */
describe.each(eachApp())('%s on Kubernetes (its deploy/kubernetes overlay)', (name, app: AppProject) => {
  const overlay = `${app.root}/deploy/kubernetes`;

  it('has an overlay (nest g mcp-server writes one)', () => {
    expect(existsSync(join(ROOT, overlay, 'kustomization.yaml'))).toBe(true);
  });

  // Rendered once for the suite (kustomize + the schemas take a second or two).
  let check: ReturnType<typeof checkKustomization> | undefined;
  const rendered = () => (check ??= checkKustomization(overlay));

  it('renders with kustomize and passes the Kubernetes schemas', () => {
    const { status, errors } = rendered();
    expect(errors).toEqual([]);
    expect(status).toBe(0);
  });

  it('puts everything in its own namespace under the restricted Pod Security profile', () => {
    const { resources } = rendered();
    const namespace = resources.find((r) => r.kind === 'Namespace')!;
    expect(namespace.metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('restricted');
    for (const r of resources.filter((r) => r.kind !== 'Namespace')) {
      expect(r.metadata.namespace).toBe(namespace.metadata.name);
    }
  });

  it(`runs the ${name} image at the app's version and names itself ${name} in traces`, () => {
    const { resources } = rendered();
    const deployment = find<K8sResource & { spec: { template: { spec: { containers: { image: string }[] } } } }>(
      resources,
      'Deployment',
      'mcp-server',
    );
    expect(deployment.spec.template.spec.containers[0].image).toMatch(new RegExp(`/${name}:${app.version}$`));
    const config = find<K8sResource & { data: Record<string, string> }>(resources, 'ConfigMap', 'mcp-server').data;
    expect(config.OTEL_SERVICE_NAME).toBe(name);
  });

  it('agrees with itself on the public host: Ingress, allowed Host, audience and resource URL', () => {
    const { resources } = rendered();
    const config = find<K8sResource & { data: Record<string, string> }>(resources, 'ConfigMap', 'mcp-server').data;
    const ingress = find<K8sResource & { spec: { rules: { host: string }[]; tls: { hosts: string[] }[] } }>(
      resources,
      'Ingress',
      'mcp-server',
    );
    const host = ingress.spec.rules[0].host;
    expect(ingress.spec.tls[0].hosts).toEqual([host]);
    expect(config.MCP_ALLOWED_HOSTS.split(',')).toContain(host);
    expect(config.MCP_JWT_AUDIENCE).toBe(`https://${host}/mcp`);
    expect(config.MCP_RESOURCE_URL).toBe(`https://${host}/mcp`);
  });
});
