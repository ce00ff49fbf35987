import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The deployment files (Dockerfile, docker-compose.yml) checked without a container engine:
 * docker-compose validates and normalises the compose file, and the Dockerfile is read as text.
 * CI (.ci/run) installs Debian's docker-compose; without it these tests fail rather than skip.
 */
const ROOT = resolve(__dirname, '..');

function hasDockerCompose(): boolean {
  return spawnSync('docker-compose', ['version'], { encoding: 'utf8' }).status === 0;
}

const MISSING_COMPOSE =
  'docker-compose is not on PATH: install it (Debian: `apt-get install -y docker-compose`; .ci/run does this) to validate docker-compose.yml';

describe('docker-compose.yml', () => {
  let config: { services?: Record<string, ComposeService> };

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
  });

  it('is accepted by docker-compose config', () => {
    expect(config).toBeDefined();
    expect(Object.keys(config.services ?? {})).toContain('helpdesk');
  });

  it('builds helpdesk from the repository Dockerfile', () => {
    const build = config.services!.helpdesk.build;
    expect(build).toBeDefined();
    const { context, dockerfile } = typeof build === 'string' ? { context: build, dockerfile: undefined } : build!;
    expect(resolve(ROOT, context ?? '.')).toBe(ROOT);
    expect(dockerfile ?? 'Dockerfile').toBe('Dockerfile');
  });

  it('publishes port 3000 on 127.0.0.1 only', () => {
    const ports = (config.services!.helpdesk.ports ?? []).map(normalisePort);
    expect(ports).toEqual([{ hostIp: '127.0.0.1', published: '3000', target: '3000' }]);
  });

  it('runs with a read-only root filesystem, a tmpfs /tmp and no-new-privileges', () => {
    const helpdesk = config.services!.helpdesk;
    expect(helpdesk.read_only).toBe(true);
    expect([helpdesk.tmpfs].flat()).toContain('/tmp');
    expect(helpdesk.security_opt).toContain('no-new-privileges:true');
    expect(helpdesk.restart).toBeTruthy();
  });

  it('listens on all interfaces inside the container and allows the expected Host names', () => {
    const env = environment(config.services!.helpdesk.environment);
    expect(env).toMatchObject({ HOST: '0.0.0.0', PORT: '3000' });
    expect(env.MCP_ALLOWED_HOSTS?.split(',').map((h) => h.trim())).toEqual(
      expect.arrayContaining(['localhost', '127.0.0.1', 'helpdesk']),
    );
  });
});

describe('Dockerfile', () => {
  const stages = parseDockerfile(readFileSync(resolve(ROOT, 'Dockerfile'), 'utf8'));
  const final = stages[stages.length - 1];

  it('is a multi-stage build that installs and builds in an earlier stage', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const earlier = stages.slice(0, -1).flatMap((s) => s.instructions.filter((i) => i.keyword === 'RUN'));
    expect(earlier.some((i) => /\bnpm ci\b/.test(i.args))).toBe(true);
    expect(earlier.some((i) => /\bnpm run build\b/.test(i.args))).toBe(true);
    for (const stage of stages) expect(stage.from).toMatch(/^node:24[-.\w]*$/);
  });

  it('installs production dependencies only in the final stage (no `node` devDependency at runtime)', () => {
    const installs = final.instructions.filter((i) => i.keyword === 'RUN' && /\bnpm (ci|install|i)\b/.test(i.args));
    expect(installs.length).toBeGreaterThan(0);
    for (const install of installs) expect(install.args).toMatch(/\bnpm ci\b.*--omit=dev/);
    expect(
      final.instructions.some((i) => i.keyword === 'COPY' && /--from=/.test(i.args) && /\bdist\b/.test(i.args)),
    ).toBe(true);
  });

  it('runs as a non-root user in the final stage', () => {
    const users = final.instructions.filter((i) => i.keyword === 'USER');
    expect(users.length).toBeGreaterThan(0);
    const user = users[users.length - 1].args.split(':')[0].trim();
    expect(['root', '0', '']).not.toContain(user);
  });

  it('sets the container environment and exposes 3000', () => {
    const env = final.instructions
      .filter((i) => i.keyword === 'ENV')
      .map((i) => i.args)
      .join(' ');
    expect(env).toMatch(/\bNODE_ENV=production\b/);
    expect(env).toMatch(/\bHOST=0\.0\.0\.0\b/);
    expect(env).toMatch(/\bPORT=3000\b/);
    expect(final.instructions.some((i) => i.keyword === 'EXPOSE' && /\b3000\b/.test(i.args))).toBe(true);
  });

  it('starts the entry point that `npm run build` produces', () => {
    const cmds = final.instructions.filter((i) => i.keyword === 'CMD');
    expect(cmds.length).toBeGreaterThan(0);
    const cmd = JSON.parse(cmds[cmds.length - 1].args) as string[];
    expect(cmd[0]).toBe('node');
    const entry = cmd.find((arg) => arg.endsWith('.js'));
    expect(entry).toBe('dist/apps/helpdesk/apps/helpdesk/src/main.js');
    expect(existsSync(resolve(ROOT, entry!))).toBe(true);
  });
});

interface ComposeService {
  build?: string | { context?: string; dockerfile?: string };
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

interface Instruction {
  keyword: string;
  args: string;
}
interface Stage {
  from: string;
  instructions: Instruction[];
}

/** Instructions grouped by FROM; comments dropped, continuations joined, global ARG defaults substituted into FROM. */
function parseDockerfile(text: string): Stage[] {
  const logical: string[] = [];
  let pending = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('#') || (!pending && !line)) continue;
    if (line.endsWith('\\')) {
      pending += line.slice(0, -1) + ' ';
      continue;
    }
    logical.push((pending + line).trim());
    pending = '';
  }
  if (pending.trim()) logical.push(pending.trim());

  const stages: Stage[] = [];
  const globalArgs: Record<string, string> = {};
  for (const line of logical) {
    const match = /^(\w+)\s*(.*)$/.exec(line);
    if (!match) continue;
    const keyword = match[1].toUpperCase();
    const args = match[2].trim();
    if (keyword === 'ARG' && stages.length === 0) {
      const [name, ...value] = args.split('=');
      globalArgs[name.trim()] = value
        .join('=')
        .trim()
        .replace(/^"(.*)"$/, '$1');
    } else if (keyword === 'FROM') {
      const image = args.split(/\s+/).find((word) => !word.startsWith('--')) ?? '';
      const from = image.replace(/\$\{?(\w+)\}?/g, (_, name: string) => globalArgs[name] ?? '');
      stages.push({ from, instructions: [] });
    } else if (stages.length > 0) {
      stages[stages.length - 1].instructions.push({ keyword, args });
    }
  }
  return stages;
}
