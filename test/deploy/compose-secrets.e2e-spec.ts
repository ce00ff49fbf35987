import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  COMPOSE_DIR,
  ComposeConfig,
  ROOT,
  environment,
  mountedFile,
  parseYaml,
  runCompose,
  runsTheServer,
} from '../support/compose-config';
import { COMPOSE_SECRETS, bytes, flag, readEnvFile, runGenerator } from '../support/deploy-secrets';

/**
 * docker-compose.yml keeps no secret: each one comes from an uncommitted .env that `npm run env:generate` writes,
 * and without it docker-compose stops at once with one line naming that command. Run in a copy of the compose
 * files (a fresh clone's view: docker-compose finds .env beside the file itself), never with the repository's own
 * .env. Every service has a memory and CPU limit; Redis has a password and a maxmemory below its limit, with
 * noeviction. redis-auth.e2e-spec.ts runs those Redis arguments in a real redis-server.
 */
describe('docker-compose.yml: secrets from a generated .env, memory and CPU bounds', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-compose-'));
    cpSync(join(ROOT, 'docker-compose.yml'), join(dir, 'docker-compose.yml'));
    cpSync(COMPOSE_DIR, join(dir, 'deploy/compose'), { recursive: true });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('without .env, `docker-compose config` stops with one line that names the generator', () => {
    expect(existsSync(join(dir, '.env'))).toBe(false);
    const run = runCompose(dir, ['config']);
    expect(run.status).not.toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/(Missing mandatory value|missing a value).*: no \.env: run npm run env:generate$/m);
  });

  it.each(COMPOSE_SECRETS)('a .env without %s stops it the same way, naming that variable', (name) => {
    const generated = join(dir, 'full.env');
    expect(runGenerator(['--force', '--out', generated]).status).toBe(0);
    const partial = readFileSync(generated, 'utf8').replace(new RegExp(`^${name}=.*\\n`, 'm'), '');
    writeFileSync(join(dir, '.env'), partial, { mode: 0o600 });
    try {
      const run = runCompose(dir, ['config']);
      expect(run.status).not.toBe(0);
      expect(run.stderr).toContain(`\${${name}:?no .env: run npm run env:generate}`);
    } finally {
      rmSync(join(dir, '.env'));
    }
  });

  describe('with the .env the generator writes beside it', () => {
    let config: ComposeConfig;
    let secrets: Record<string, string>;

    beforeAll(() => {
      const made = runGenerator(['--out', join(dir, '.env')]);
      expect(made.status).toBe(0);
      secrets = readEnvFile(join(dir, '.env'));
      const run = runCompose(dir, ['config']);
      if (run.status !== 0) throw new Error(`docker-compose config failed:\n${run.stderr}`);
      config = parseYaml(run.stdout) as ComposeConfig;
    });

    it('validates, and every service has a memory limit and a CPU limit', () => {
      const services = Object.entries(config.services);
      expect(services.length).toBeGreaterThanOrEqual(9);
      for (const [name, service] of services) {
        expect({ name, memory: bytes(service.mem_limit ?? 0, 'docker') > 0 }).toEqual({ name, memory: true });
        expect({ name, cpus: Number(service.cpus) > 0 }).toEqual({ name, cpus: true });
      }
    });

    it('Redis requires the .env password, keeps maxmemory below its container limit and never evicts', () => {
      const redis = config.services.redis;
      const args = redis.command as string[];
      expect(args[0]).toBe('redis-server');
      expect(flag(args, '--requirepass')).toBe(secrets.REDIS_PASSWORD);
      expect(flag(args, '--maxmemory-policy')).toBe('noeviction');
      const maxmemory = bytes(flag(args, '--maxmemory')!, 'redis');
      const limit = bytes(redis.mem_limit!, 'docker');
      // Room for what maxmemory does not count (allocator fragmentation, buffers, the process itself).
      expect(maxmemory).toBeLessThanOrEqual(limit * 0.85);
      expect(maxmemory).toBeGreaterThanOrEqual(limit * 0.5);
      // Its healthcheck authenticates (redis-cli reads REDISCLI_AUTH) and needs PONG, not just exit 0.
      expect(environment(redis.environment).REDISCLI_AUTH).toBe(secrets.REDIS_PASSWORD);
      expect(JSON.stringify(redis.healthcheck?.test)).toContain('grep -q PONG');
    });

    it('every client of Redis sends that password: the replicas (REDIS_URL) and the exporter', () => {
      const replicas = Object.values(config.services).filter(runsTheServer);
      expect(replicas.length).toBeGreaterThanOrEqual(2);
      for (const replica of replicas) {
        const url = new URL(environment(replica.environment).REDIS_URL);
        expect(url.password).toBe(secrets.REDIS_PASSWORD);
        expect(url.host).toBe('redis:6379');
        // The request-state key comes from .env, so it is not kept in Redis.
        expect(environment(replica.environment).MCP_REQUEST_STATE_SECRET).toBe(secrets.MCP_REQUEST_STATE_SECRET);
      }
      const exporter = environment(config.services['redis-exporter'].environment);
      expect(exporter).toMatchObject({ REDIS_ADDR: 'redis://redis:6379', REDIS_PASSWORD: secrets.REDIS_PASSWORD });
    });

    it("Keycloak's admin password and the realm client's secret come from .env", () => {
      const keycloak = config.services.keycloak;
      const env = environment(keycloak.environment);
      expect(env.KC_BOOTSTRAP_ADMIN_PASSWORD).toBe(secrets.KEYCLOAK_ADMIN_PASSWORD);
      expect(env.MCP_CLIENT_SECRET).toBe(secrets.MCP_CLIENT_SECRET);
      // Keycloak resolves ${VAR} placeholders of an imported realm from its environment.
      const realm = JSON.parse(
        readFileSync(mountedFile(keycloak, '/opt/keycloak/data/import/mcp-realm.json')!, 'utf8'),
      ) as { clients: { clientId: string; secret?: string; publicClient?: boolean }[] };
      for (const client of realm.clients.filter((c) => !c.publicClient)) {
        expect({ client: client.clientId, secret: client.secret }).toEqual({
          client: client.clientId,
          secret: '${MCP_CLIENT_SECRET}',
        });
      }
    });

    it('the generated secrets are distinct, 256-bit hex values', () => {
      const values = COMPOSE_SECRETS.map((name) => secrets[name]);
      for (const value of values) expect(value).toMatch(/^[0-9a-f]{64}$/);
      expect(new Set(values).size).toBe(values.length);
    });
  });
});

/** The literals the files used to carry, built here so that this file does not carry them either. */
const OLD_CLIENT_SECRET = ['mcp', 'client', 'dev', 'secret'].join('-');

describe('no secret value in the committed deployment files', () => {
  const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((f) => f && !f.startsWith('test/') && existsSync(join(ROOT, f)));

  it('.env and .env.kubernetes are git-ignored, and no .env file is tracked', () => {
    const ignored = execFileSync('git', ['check-ignore', '--no-index', '.env', '.env.kubernetes'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(ignored.trim().split('\n')).toEqual(['.env', '.env.kubernetes']);
    expect(tracked.filter((f) => /(^|\/)\.env(\.|$)/.test(f))).toEqual([]);
  });

  it('the old client secret appears nowhere; the admin password and the Redis password have no default', () => {
    const compose = readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8');
    for (const file of tracked.filter((f) => /\.(ya?ml|json|md|mjs|ts|conf|template)$/.test(f))) {
      expect({ file, found: readFileSync(join(ROOT, file), 'utf8').includes(OLD_CLIENT_SECRET) }).toEqual({
        file,
        found: false,
      });
    }
    // Every value of a PASSWORD/SECRET variable, and the password of every URL, is a required substitution.
    const assignments = [...compose.matchAll(/^\s*(\w*(?:PASSWORD|SECRET|_AUTH)\w*):\s*(.*)$/gm)];
    expect(assignments.length).toBeGreaterThanOrEqual(5);
    for (const [, name, value] of assignments) {
      expect({ name, value }).toEqual({ name, value: expect.stringMatching(/^'\$\{\w+:\?[^}]+\}'$/) });
    }
    for (const [url] of compose.matchAll(/rediss?:\/\/[^\s'"]*@[^\s'"]*/g)) expect(url).toMatch(/:\/\/:\$\{\w+:\?/);
    expect(compose).toMatch(/- --requirepass\n\s+- '\$\{REDIS_PASSWORD:\?/);
  });
});
