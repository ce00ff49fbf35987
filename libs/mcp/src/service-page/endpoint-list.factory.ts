import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { PROTECTED_RESOURCE_PATH } from '../auth/resource-url';
import { EndpointView } from './service-page.model';
import { SERVICE_PAGE_PATH } from './service-page.constants';

/** The HTTP endpoints this server serves, from its resolved options. @internal */
export function endpointList(options: ResolvedMcpOptions): EndpointView[] {
  const list: EndpointView[] = [
    { method: 'POST, GET, DELETE', path: options.path, description: 'MCP Streamable HTTP endpoint (Bearer token)' },
    {
      method: 'GET',
      path: PROTECTED_RESOURCE_PATH,
      description: 'OAuth protected resource metadata (RFC 9728), no auth',
    },
  ];
  if (options.legacySse)
    list.push({
      method: 'GET, POST',
      path: '/sse, /messages',
      description: 'legacy HTTP+SSE transport (MCP 2024-11-05)',
    });
  if (options.health.enabled) {
    list.push(
      { method: 'GET', path: '/health', description: 'liveness, no auth' },
      { method: 'GET', path: '/ready', description: 'readiness (dependencies), no auth' },
    );
  }
  const metrics = options.metrics;
  if (metrics && metrics.port !== false) {
    const where = metrics.port === 0 ? 'a free port picked at start' : `port ${metrics.port}`;
    list.push({
      method: 'GET',
      path: '/metrics',
      description: `Prometheus metrics on a separate listener (${where}; not through this port)`,
    });
  }
  if (metrics && metrics.basicAuth)
    list.push({ method: 'GET', path: '/metrics', description: 'Prometheus metrics on this port, Basic auth' });
  list.push({ method: 'GET', path: SERVICE_PAGE_PATH, description: 'this page, no auth' });
  list.push({ method: 'MCP resource', path: 'use://auth', description: 'how to authenticate, from the server itself' });
  list.push({
    method: 'MCP resource',
    path: 'use://http-headers',
    description: 'every HTTP header the MCP endpoint reads or writes',
  });
  return list;
}
