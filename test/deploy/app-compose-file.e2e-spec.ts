import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { eachApp } from '../support/apps';
import {
  ComposeConfig,
  ComposeService,
  ROOT,
  composeConfig,
  composeSecrets,
  environment,
  imageEnvironment,
  mountedFile,
  normalisePort,
  parseYaml,
  replicaServices,
} from '../support/compose-config';

/**
 * The compose deployment (docker-compose.yml at the repository root) of every app under apps/ (`APP=<app>`),
 * read the way docker-compose reads it: replicas behind a load balancer without affinity, Redis, Keycloak, the
 * OpenTelemetry collector, Jaeger and Prometheus, wired to each other. app-compose-processes.e2e-spec.ts runs the
 * same configuration as processes.
 */
const NEST_CLI = JSON.parse(readFileSync(resolve(ROOT, 'nest-cli.json'), 'utf8')) as {
  projects: Record<string, { type: string; root: string }>;
};

describe.each(eachApp())('docker-compose.yml deploying %s', (app) => {
  let config: ComposeConfig;
  let replicas: [string, ComposeService][];

  beforeAll(() => {
    config = composeConfig(app);
    replicas = replicaServices(config);
  });

  it('has two or more identical MCP replicas built from the repository Dockerfile for an app under apps/', () => {
    expect(replicas.length).toBeGreaterThanOrEqual(2);
    for (const [, service] of replicas) {
      const { context, dockerfile, args } =
        typeof service.build === 'string' ? { context: service.build } : service.build!;
      expect(resolve(ROOT, context ?? '.')).toBe(ROOT);
      expect(dockerfile ?? 'Dockerfile').toBe('Dockerfile');
      expect(args!.APP).toBe(app);
      expect(NEST_CLI.projects[args!.APP]).toMatchObject({ type: 'application', root: `apps/${app}` });
      expect(service.image).toBe(`${app}:local`);
      expect(environment(service.environment).OTEL_SERVICE_NAME).toBe(app);
    }
    // The same configuration but for the instance name each one reports in its traces.
    const withoutInstance = replicas.map(([, s]) => {
      const env = environment(s.environment);
      delete env.OTEL_RESOURCE_ATTRIBUTES;
      return { ...s, environment: env };
    });
    for (const other of withoutInstance.slice(1)) expect(other).toEqual(withoutInstance[0]);
    replicas.forEach(([name, s]) =>
      expect(environment(s.environment).OTEL_RESOURCE_ATTRIBUTES).toBe(`service.instance.id=${name}`),
    );
  });

  it('runs the replicas in the production configuration, on Redis, behind nothing but the load balancer', () => {
    for (const [, service] of replicas) {
      const env = { ...imageEnvironment(), ...environment(service.environment) };
      expect(env).toMatchObject({ NODE_ENV: 'production', HOST: '0.0.0.0', PORT: '3000', MCP_STORE: 'redis' });
      // The compose Redis with the password of .env (never a default in the file: compose-secrets.e2e-spec.ts).
      expect(env.REDIS_URL).toBe(`redis://:${composeSecrets().values.REDIS_PASSWORD}@redis:6379`);
      // Production refuses to boot without these three; the development issuer is off.
      expect(env.MCP_JWKS_URI).toMatch(/^http:\/\/keycloak:8080\/realms\/[\w-]+\/protocol\/openid-connect\/certs$/);
      expect(env.MCP_JWT_ISSUER).toMatch(/^http:\/\/localhost:8081\/realms\/[\w-]+$/);
      expect(env.MCP_JWT_AUDIENCE).toBe('http://localhost:8080/mcp');
      expect(env.MCP_METRICS_PORT).toBe('9464');
      expect(env.OTEL_EXPORTER_OTLP_ENDPOINT).toBe('http://otel-collector:4318');
      expect(env.MCP_ALLOWED_HOSTS.split(',')).toEqual(expect.arrayContaining(['localhost', '127.0.0.1']));
      // Replicas publish no port: clients reach them through the load balancer, Prometheus over the network.
      expect(service.ports ?? []).toEqual([]);
      expect(Object.keys(service.depends_on ?? {})).toEqual(expect.arrayContaining(['redis', 'keycloak']));
    }
  });

  it('hardens every replica: read-only root, tmpfs /tmp, no capabilities, no-new-privileges, restarts', () => {
    for (const [, service] of replicas) {
      expect(service.read_only).toBe(true);
      expect([service.tmpfs].flat()).toContain('/tmp');
      expect(service.security_opt).toContain('no-new-privileges:true');
      expect(service.cap_drop).toEqual(['ALL']);
      expect(service.restart).toBeTruthy();
    }
  });

  it('balances round robin over every replica with no session affinity', () => {
    const lb = config.services.lb;
    const conf = readFileSync(mountedFile(lb, '/etc/nginx/nginx.conf')!, 'utf8').replace(/#.*$/gm, '');
    expect(lb.image).toMatch(/^nginx:/);
    const upstream = /upstream\s+mcp\s*\{([^}]*)\}/.exec(conf)![1];
    const servers = [...upstream.matchAll(/server\s+([\w.-]+):(\d+)/g)].map((m) => `${m[1]}:${m[2]}`);
    expect(servers.sort()).toEqual(replicas.map(([name]) => `${name}:3000`).sort());
    expect(upstream).not.toMatch(/\b(ip_hash|hash|sticky|least_conn|random)\b/);
    expect(conf).toMatch(/proxy_pass\s+http:\/\/mcp;/);
    expect(conf).toMatch(/proxy_buffering\s+off;/);
    expect(conf).toMatch(/proxy_set_header\s+Host\s+\$http_host;/);
    // A POST that reached a replica is never replayed on another (no non_idempotent, no http_5xx).
    expect(/proxy_next_upstream\s+([^;]*);/.exec(conf)![1].split(/\s+/).sort()).toEqual(['error', 'timeout']);
    expect(lb.ports?.map(normalisePort)).toEqual([{ hostIp: '127.0.0.1', published: '8080', target: '8080' }]);
  });

  it('imports a Keycloak realm whose tokens the replicas accept (issuer, audience, sub, scopes)', () => {
    const keycloak = config.services.keycloak;
    const realm = JSON.parse(
      readFileSync(mountedFile(keycloak, '/opt/keycloak/data/import/mcp-realm.json')!, 'utf8'),
    ) as KeycloakRealm;
    expect(keycloak.command).toEqual(expect.arrayContaining(['--import-realm']));
    const kc = environment(keycloak.environment);
    const env = environment(replicas[0][1].environment);
    expect(env.MCP_JWT_ISSUER).toBe(`${kc.KC_HOSTNAME}/realms/${realm.realm}`);
    expect(env.MCP_JWKS_URI).toBe(`http://keycloak:8080/realms/${realm.realm}/protocol/openid-connect/certs`);
    const client = realm.clients.find((c) => c.serviceAccountsEnabled)!;
    const audience = client.protocolMappers.find((m) => m.protocolMapper === 'oidc-audience-mapper')!;
    expect(audience.config['included.custom.audience']).toBe(env.MCP_JWT_AUDIENCE);
    const scopes = realm.clientScopes.filter((s) => client.defaultClientScopes.includes(s.name));
    expect(scopes.flatMap((s) => s.protocolMappers ?? []).map((m) => m.protocolMapper)).toContain('oidc-sub-mapper');
    // The app's own scopes (which the process suite's calls need) ride in the token's scope claim.
    const granted = scopes.filter((s) => s.attributes['include.in.token.scope'] === 'true').map((s) => s.name);
    expect(granted.length).toBeGreaterThan(0);
    expect(keycloak.ports?.map(normalisePort)).toEqual([{ hostIp: '127.0.0.1', published: '8081', target: '8080' }]);
  });

  it('sends traces to the collector, which exports them to Jaeger', () => {
    const collector = config.services['otel-collector'];
    const file = mountedFile(collector, '/etc/otelcol/config.yaml')!;
    const otel = parseYaml(readFileSync(file, 'utf8')) as OtelConfig;
    expect(otel.receivers.otlp.protocols.http.endpoint).toBe('0.0.0.0:4318');
    expect(otel.service.pipelines.traces.receivers).toEqual(['otlp']);
    const [exporter] = otel.service.pipelines.traces.exporters;
    expect(otel.exporters[exporter].endpoint).toBe('jaeger:4317');
    expect(config.services.jaeger.image).toMatch(/^jaegertracing\/jaeger:2\./);
  });

  it('has Prometheus scrape /metrics on every replica at its management port', () => {
    const prometheus = config.services.prometheus;
    const scrape = parseYaml(readFileSync(mountedFile(prometheus, '/etc/prometheus/prometheus.yml')!, 'utf8')) as {
      scrape_configs: { metrics_path?: string; static_configs: { targets: string[] }[] }[];
    };
    const job = scrape.scrape_configs[0];
    expect(job.metrics_path ?? '/metrics').toBe('/metrics');
    expect(job.static_configs.flatMap((c) => c.targets).sort()).toEqual(replicas.map(([n]) => `${n}:9464`).sort());
  });

  it('publishes every port on 127.0.0.1 only', () => {
    for (const service of Object.values(config.services)) {
      for (const port of (service.ports ?? []).map(normalisePort)) expect(port.hostIp).toBe('127.0.0.1');
    }
  });
});

interface KeycloakRealm {
  realm: string;
  clientScopes: {
    name: string;
    attributes: Record<string, string>;
    protocolMappers?: { protocolMapper: string }[];
  }[];
  clients: {
    serviceAccountsEnabled?: boolean;
    defaultClientScopes: string[];
    protocolMappers: { protocolMapper: string; config: Record<string, string> }[];
  }[];
}

interface OtelConfig {
  receivers: { otlp: { protocols: { http: { endpoint: string } } } };
  exporters: Record<string, { endpoint: string }>;
  service: { pipelines: { traces: { receivers: string[]; exporters: string[] } } };
}
