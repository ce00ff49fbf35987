import { K8sResource, checkKustomization, find } from '../../../../test/support/kubernetes';

/** The example's Kubernetes overlay (apps/helpdesk/deploy/kubernetes) over the shared base. */
describe('helpdesk on Kubernetes (apps/helpdesk/deploy/kubernetes)', () => {
  const { status, resources, errors } = checkKustomization('apps/helpdesk/deploy/kubernetes');
  const config = find<K8sResource & { data: Record<string, string> }>(resources, 'ConfigMap', 'mcp-server').data;

  it('renders with kustomize and passes the Kubernetes schemas', () => {
    expect(errors).toEqual([]);
    expect(status).toBe(0);
  });

  it('puts everything in its own namespace under the restricted Pod Security profile', () => {
    const namespace = find<K8sResource>(resources, 'Namespace', 'helpdesk');
    expect(namespace.metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('restricted');
    for (const r of resources.filter((r) => r.kind !== 'Namespace')) expect(r.metadata.namespace).toBe('helpdesk');
  });

  it('runs the helpdesk image and names itself helpdesk in traces', () => {
    const deployment = find<K8sResource & { spec: { template: { spec: { containers: { image: string }[] } } } }>(
      resources,
      'Deployment',
      'mcp-server',
    );
    expect(deployment.spec.template.spec.containers[0].image).toMatch(/\/helpdesk:\d+\.\d+\.\d+$/);
    expect(config.OTEL_SERVICE_NAME).toBe('helpdesk');
  });

  it('agrees with itself on the public host: Ingress, allowed Host, audience and resource URL', () => {
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
