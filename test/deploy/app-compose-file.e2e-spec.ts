import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SHUTDOWN_MARGIN_MS } from '@app/mcp/tooling';
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
  runCompose,
} from '../support/compose-config';

/**
 * The compose deployment (docker-compose.yml at the repository root) of every app under apps/ (`APP=<app>`),
 * read the way docker-compose reads it: replicas behind a load balancer without affinity, Redis, Keycloak, the
 * OpenTelemetry collector, Jaeger and Prometheus, wired to each other, and the task worker of the profile
 * "workers". app-compose-processes.e2e-spec.ts runs the same configuration as processes;
 * kubernetes-task-workers.e2e-spec.ts runs a request replica and a worker.
 */
const NEST_CLI = JSON.parse(readFileSync(resolve(ROOT, 'nest-cli.json'), 'utf8')) as {
  projects: Record<string, { type: string; root: string }>;
};

describe.each(eachApp())('docker-compose.yml deploying %s', (app) => {
  let config: ComposeConfig;
  let replicas: [string, ComposeService][];

  beforeAll(() => {
    config = composeConfig(app);
    replicas = loadBalanced(config);
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
      // The image's own command runs, with the project's Node flags (scripts/lib/node-flags.mjs).
      expect(service.command).toBeUndefined();
      expect(Object.keys(service.depends_on ?? {})).toEqual(expect.arrayContaining(['redis', 'keycloak']));
    }
  });

  it("hardens every replica, and every other service of the image (an app's sidecar): read-only root, tmpfs /tmp, no capabilities, no-new-privileges, restarts", () => {
    // A service built from the Dockerfile with a command of its own runs the app's code too (a sidecar).
    const sidecars = Object.values(config.services).filter((s) => s.build !== undefined && s.command !== undefined);
    for (const service of sidecars) expect(service.ports ?? []).toEqual([]);
    for (const service of [...replicas.map(([, s]) => s), ...sidecars]) {
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

  /**
   * The task worker (docs/deploying.md, "A separate task worker deployment"): `docker-compose --profile workers up`
   * starts it beside the replicas, and MCP_TASK_WORKER=false in the shell turns the replicas' own worker off.
   */
  describe('the task worker of the profile "workers"', () => {
    let split: ComposeConfig;
    let worker: Service;

    beforeAll(() => {
      split = renderCompose(app, ['--profile', 'workers'], { MCP_TASK_WORKER: 'false' });
      worker = split.services['mcp-worker'];
    });

    it('is started with the profile only: a plain `up` starts what it did before', () => {
      expect(worker.profiles).toEqual(['workers']);
      // docker-compose 1.x lists every service in `config` (the profile says whether `up` starts it); 2.x leaves
      // out the services of profiles not asked for.
      const plain = config.services['mcp-worker'] as Service | undefined;
      if (plain) expect(plain.profiles).toEqual(['workers']);
      const profiled = Object.entries(split.services).filter(([, s]) => (s as Service).profiles?.length);
      expect(profiled.map(([name]) => name)).toEqual(['mcp-worker']);
      expect(Object.keys(split.services).sort()).toEqual(
        [...new Set([...Object.keys(config.services), 'mcp-worker'])].sort(),
      );
    });

    it("is the replicas' app: their build, image, limits, hardening and settings, and no MCP_TASK_WORKER", () => {
      const [, replica] = loadBalanced(split)[0];
      const shape = ({ environment: _e, profiles: _p, stop_grace_period: _g, ...rest }: Service) => rest;
      expect(shape(worker)).toEqual(shape(replica));
      expect(worker).toMatchObject({ image: `${app}:local`, mem_limit: replica.mem_limit, cpus: replica.cpus });
      const env = environment(worker.environment);
      // Unset is on: it runs the tasks whatever the replicas are given.
      expect(env).not.toHaveProperty('MCP_TASK_WORKER');
      expect(env.OTEL_RESOURCE_ATTRIBUTES).toBe('service.instance.id=mcp-worker');
      const others = (e: Record<string, string>) => {
        const rest = { ...e };
        for (const key of ['MCP_TASK_WORKER', 'OTEL_RESOURCE_ATTRIBUTES', 'MCP_SHUTDOWN_GRACE_MS']) delete rest[key];
        return rest;
      };
      // The same store (tasks are queued on this Redis), issuer, secrets, telemetry as the replicas.
      expect(others(env)).toEqual(others(environment(replica.environment)));
      expect(env).toMatchObject({ MCP_STORE: 'redis', MCP_METRICS_PORT: '9464' });
      // Docker waits for the drain (runs under way finish) and the server's margin after it before SIGKILL.
      const drainMs = Number(env.MCP_SHUTDOWN_GRACE_MS);
      expect(drainMs).toBeGreaterThanOrEqual(10_000);
      expect(seconds(worker.stop_grace_period!) * 1000).toBeGreaterThan(drainMs + SHUTDOWN_MARGIN_MS);
    });

    it('gets no client traffic: not behind the load balancer, no published port', () => {
      const lb = split.services.lb;
      const conf = readFileSync(mountedFile(lb, '/etc/nginx/nginx.conf')!, 'utf8').replace(/#.*$/gm, '');
      expect(conf).not.toContain('mcp-worker');
      const dependsOn = Array.isArray(lb.depends_on) ? lb.depends_on : Object.keys(lb.depends_on ?? {});
      expect(dependsOn).toEqual(expect.arrayContaining(loadBalanced(split).map(([name]) => name)));
      expect(dependsOn).not.toContain('mcp-worker');
      expect(worker.ports ?? []).toEqual([]);
      expect(loadBalanced(split).map(([name]) => name)).not.toContain('mcp-worker');
    });

    it('MCP_TASK_WORKER=false reaches the load-balanced replicas (they answer requests only); unset, they work', () => {
      const names = (c: ComposeConfig) => loadBalanced(c).map(([name]) => name);
      expect(names(split)).toEqual(names(config));
      for (const [, replica] of loadBalanced(split))
        expect(environment(replica.environment).MCP_TASK_WORKER).toBe('false');
      // Without it (and with it empty) every replica runs tasks, as before the profile existed.
      const plain = renderCompose(app, [], { MCP_TASK_WORKER: '' });
      for (const [, replica] of loadBalanced(plain))
        expect(environment(replica.environment).MCP_TASK_WORKER).toBe('true');
    });

    it('is scraped by Prometheus by its name on the management port; a plain `up` has no target for it', () => {
      const prometheus = split.services.prometheus;
      const scrape = parseYaml(readFileSync(mountedFile(prometheus, '/etc/prometheus/prometheus.yml')!, 'utf8')) as {
        scrape_configs: {
          job_name: string;
          static_configs?: { targets: string[] }[];
          dns_sd_configs?: { names: string[]; type?: string; port?: number }[];
        }[];
      };
      const statics = scrape.scrape_configs.flatMap((j) => (j.static_configs ?? []).flatMap((c) => c.targets));
      // Never a static target: it would be down whenever the profile is off.
      expect(statics.filter((t) => t.startsWith('mcp-worker'))).toEqual([]);
      // By DNS instead (no name, no target), in the replicas' job, so the rules and dashboards see it with them.
      const [job] = scrape.scrape_configs;
      expect(job.dns_sd_configs).toEqual([
        { names: ['mcp-worker'], type: 'A', port: Number(environment(worker.environment).MCP_METRICS_PORT) },
      ]);
    });
  });

  it('publishes every port on 127.0.0.1 only', () => {
    for (const service of Object.values(config.services)) {
      for (const port of (service.ports ?? []).map(normalisePort)) expect(port.hostIp).toBe('127.0.0.1');
    }
  });
});

type Service = ComposeService & { profiles?: string[]; stop_grace_period?: string };

/** The replicas behind the load balancer: the app's services that a plain `up` starts (the worker has a profile). */
function loadBalanced(config: ComposeConfig): [string, Service][] {
  return replicaServices(config).filter(([, s]) => !(s as Service).profiles?.length);
}

/** `docker-compose [args] config` for `app` with generated secrets and `env` added to the shell's. */
function renderCompose(app: string, args: string[], env: Record<string, string>): ComposeConfig {
  const run = runCompose(ROOT, ['--env-file', composeSecrets().file, '-f', 'docker-compose.yml', ...args, 'config'], {
    APP: app,
    ...env,
  });
  if (run.status !== 0) throw new Error(`docker-compose config exited with ${run.status}:\n${run.stderr}`);
  return parseYaml(run.stdout) as ComposeConfig;
}

/** A compose duration ("75s", "1m15s", "500ms") in seconds. */
function seconds(duration: string): number {
  const units: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001, us: 1e-6 };
  const parts = [...duration.matchAll(/(\d+(?:\.\d+)?)(h|ms|us|m|s)/g)];
  if (parts.map((p) => p[0]).join('') !== duration) throw new Error(`not a compose duration: ${duration}`);
  return parts.reduce((sum, [, n, unit]) => sum + Number(n) * units[unit], 0);
}

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
