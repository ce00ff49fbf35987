import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The example's deployment (docker-compose.yml at the repository root builds this app), checked without a
 * container engine: docker-compose validates and normalises the file. CI (.ci/run) installs Debian's
 * docker-compose; without it these tests fail rather than skip. A team that replaces the example points the
 * compose file at its own app and moves this suite along.
 */
const ROOT = resolve(__dirname, '../../..');
function hasDockerCompose(): boolean {
  return spawnSync('docker-compose', ['version'], { encoding: 'utf8' }).status === 0;
}

const MISSING_COMPOSE =
  'docker-compose is not on PATH: install it (Debian: `apt-get install -y docker-compose`; .ci/run does this) to validate docker-compose.yml';

/** nest-cli.json's applications: the compose file must build one of them. */
const NEST_CLI = JSON.parse(readFileSync(resolve(ROOT, 'nest-cli.json'), 'utf8')) as {
  projects: Record<string, { type: string; root: string; entryFile: string }>;
};

describe('docker-compose.yml (the example deployment)', () => {
  let config: { services?: Record<string, ComposeService> };
  let name: string;
  let service: ComposeService;

  beforeAll(() => {
    if (!hasDockerCompose()) throw new Error(MISSING_COMPOSE);
    const run = spawnSync('docker-compose', ['-f', 'docker-compose.yml', 'config'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 20_000,
    });
    if (run.error) throw new Error(`docker-compose config could not run: ${run.error.message}`);
    if (run.status !== 0) {
      throw new Error(`docker-compose config exited with ${run.status}:\n${run.stderr}\n${run.stdout}`);
    }
    config = parseYaml(run.stdout) as typeof config;
    [name, service] = Object.entries(config.services ?? {})[0] ?? [];
  });

  it('is accepted by docker-compose config and defines one server', () => {
    expect(config).toBeDefined();
    expect(Object.keys(config.services ?? {})).toHaveLength(1);
  });

  it('builds an application of nest-cli.json under apps/ from the repository Dockerfile (build argument APP)', () => {
    const build = service.build;
    expect(build).toBeDefined();
    const { context, dockerfile, args } = typeof build === 'string' ? { context: build } : build!;
    expect(resolve(ROOT, context ?? '.')).toBe(ROOT);
    expect(dockerfile ?? 'Dockerfile').toBe('Dockerfile');
    const app = (args as Record<string, string> | undefined)?.APP;
    expect(NEST_CLI.projects[app!]).toMatchObject({ type: 'application', root: `apps/${app}` });
  });

  it('publishes port 3000 on 127.0.0.1 only', () => {
    const ports = (service.ports ?? []).map(normalisePort);
    expect(ports).toEqual([{ hostIp: '127.0.0.1', published: '3000', target: '3000' }]);
  });

  it('runs with a read-only root filesystem, a tmpfs /tmp and no-new-privileges', () => {
    expect(service.read_only).toBe(true);
    expect([service.tmpfs].flat()).toContain('/tmp');
    expect(service.security_opt).toContain('no-new-privileges:true');
    expect(service.restart).toBeTruthy();
  });

  it('listens on all interfaces inside the container and allows the expected Host names', () => {
    const env = environment(service.environment);
    expect(env).toMatchObject({ HOST: '0.0.0.0', PORT: '3000' });
    expect(env.MCP_ALLOWED_HOSTS?.split(',').map((h) => h.trim())).toEqual(
      expect.arrayContaining(['localhost', '127.0.0.1', name]),
    );
  });
});

interface ComposeService {
  build?: string | { context?: string; dockerfile?: string; args?: Record<string, string> };
  ports?: Array<string | { host_ip?: string; published?: string | number; target?: string | number }>;
  environment?: Record<string, string | number | null> | string[];
  read_only?: boolean;
  tmpfs?: string | string[];
  security_opt?: string[];
  restart?: string;
}

/** docker-compose 1.x prints YAML only; PyYAML ships with it (Debian's python3-yaml), so convert there. */
function parseYaml(text: string): unknown {
  const run = spawnSync('python3', ['-c', 'import sys, json, yaml; json.dump(yaml.safe_load(sys.stdin), sys.stdout)'], {
    input: text,
    encoding: 'utf8',
  });
  if (run.status !== 0) {
    throw new Error(
      `could not parse docker-compose config output (needs python3 with PyYAML): ${run.error?.message ?? run.stderr}`,
    );
  }
  return JSON.parse(run.stdout);
}

/** Short syntax ("127.0.0.1:3000:3000/tcp", compose 1.x) or long syntax (compose 2.x) to one shape. */
function normalisePort(port: NonNullable<ComposeService['ports']>[number]): {
  hostIp: string;
  published: string;
  target: string;
} {
  if (typeof port === 'string') {
    const parts = port.replace(/\/tcp$/, '').split(':');
    const [hostIp, published, target] = parts.length === 3 ? parts : ['', ...parts];
    return { hostIp, published, target };
  }
  return { hostIp: port.host_ip ?? '', published: String(port.published ?? ''), target: String(port.target ?? '') };
}

function environment(env: ComposeService['environment']): Record<string, string | undefined> {
  if (Array.isArray(env)) {
    return Object.fromEntries(env.map((entry) => [entry.split('=')[0], entry.split('=').slice(1).join('=')]));
  }
  return Object.fromEntries(Object.entries(env ?? {}).map(([k, v]) => [k, v == null ? undefined : String(v)]));
}
