import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { generatedEnv, withoutSecrets } from './deploy-secrets';

/**
 * docker-compose.yml as docker-compose reads it (no container engine needed: `config` validates and normalises
 * the file, anchors and merges resolved). CI (scripts/test.sh) installs Debian's docker-compose; without it these
 * suites fail rather than skip.
 */
export const ROOT = resolve(__dirname, '../..');
export { imageEnvironment } from './deploy-env';
export const COMPOSE_DIR = resolve(ROOT, 'deploy/compose');

export interface ComposeService {
  build?: string | { context?: string; dockerfile?: string; args?: Record<string, string> };
  image?: string;
  command?: string | string[];
  ports?: Array<string | { host_ip?: string; published?: string | number; target?: string | number }>;
  environment?: Record<string, string | number | null> | string[];
  depends_on?: Record<string, { condition?: string }> | string[];
  volumes?: Array<string | { source?: string; target?: string; read_only?: boolean }>;
  healthcheck?: { test?: string | string[] };
  read_only?: boolean;
  tmpfs?: string | string[];
  security_opt?: string[];
  cap_drop?: string[];
  /** Services in a profile (the task worker) start only when it is asked for. */
  profiles?: string[];
  restart?: string;
  mem_limit?: string | number;
  cpus?: string | number;
}

export interface ComposeConfig {
  services: Record<string, ComposeService>;
}

/**
 * The secrets docker-compose.yml requires, fresh from the generator (`npm run env:generate`) in a temporary file
 * for this test process: the repository's own .env, if a developer has one, is never read.
 */
let secrets: ReturnType<typeof generatedEnv> | undefined;
export const composeSecrets = (): ReturnType<typeof generatedEnv> => (secrets ??= generatedEnv());

/** `docker-compose <args>` in `cwd` with `env` (the machine's, without any secret) and its outcome. */
export function runCompose(
  cwd: string,
  args: string[],
  env: Record<string, string> = {},
): { status: number | null; stdout: string; stderr: string } {
  const check = spawnSync('docker-compose', ['version'], { encoding: 'utf8' });
  if (check.status !== 0) {
    throw new Error(
      'docker-compose is not on PATH: install it (Debian: `apt-get install -y docker-compose`; the test command does this) to validate docker-compose.yml',
    );
  }
  const run = spawnSync('docker-compose', args, { cwd, env: withoutSecrets(env), encoding: 'utf8', timeout: 20_000 });
  if (run.error) throw new Error(`docker-compose ${args.join(' ')} could not run: ${run.error.message}`);
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The compose file as it deploys `app` (`APP=<app> docker-compose config`) with generated secrets. */
export function composeConfig(app: string, envFile = composeSecrets().file): ComposeConfig {
  const run = runCompose(ROOT, ['--env-file', envFile, '-f', 'docker-compose.yml', 'config'], { APP: app });
  if (run.status !== 0)
    throw new Error(`docker-compose config exited with ${run.status}:\n${run.stderr}\n${run.stdout}`);
  return parseYaml(run.stdout) as ComposeConfig;
}

/**
 * The MCP replicas: the services built from the repository's Dockerfile that run its server (the image's own
 * command), not a service of an app's own run from the same image with another command (a sidecar).
 */
export function replicaServices(config: ComposeConfig): [string, ComposeService][] {
  return Object.entries(config.services).filter(([, s]) => runsTheServer(s) && !s.profiles?.length);
}

/** Built from the repository's Dockerfile and running its command (`node dist/main.js`). */
export function runsTheServer(service: ComposeService): boolean {
  return service.build !== undefined && service.command === undefined;
}

/** docker-compose 1.x prints YAML only; PyYAML ships with it (Debian's python3-yaml), so convert there. */
export function parseYaml(text: string): unknown {
  const run = spawnSync('python3', ['-c', 'import sys, json, yaml; json.dump(yaml.safe_load(sys.stdin), sys.stdout)'], {
    input: text,
    encoding: 'utf8',
  });
  if (run.status !== 0) {
    throw new Error(`could not parse YAML (needs python3 with PyYAML): ${run.error?.message ?? run.stderr}`);
  }
  return JSON.parse(run.stdout);
}

/** Short syntax ("127.0.0.1:3000:3000/tcp", compose 1.x) or long syntax (compose 2.x) to one shape. */
export function normalisePort(port: NonNullable<ComposeService['ports']>[number]): {
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

export function environment(env: ComposeService['environment']): Record<string, string> {
  if (Array.isArray(env)) {
    return Object.fromEntries(env.map((entry) => [entry.split('=')[0], entry.split('=').slice(1).join('=')]));
  }
  return Object.fromEntries(
    Object.entries(env ?? {})
      .filter(([, v]) => v != null)
      .map(([k, v]) => [k, String(v)]),
  );
}

/** `host:container[:ro]` or the long syntax, to the repository file mounted at `target`. */
export function mountedFile(service: ComposeService, target: string): string | undefined {
  for (const volume of service.volumes ?? []) {
    const [source, into] = typeof volume === 'string' ? volume.split(':') : [volume.source, volume.target];
    if (into === target && source) return resolve(ROOT, source);
  }
  return undefined;
}
