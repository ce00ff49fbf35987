import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  COMPOSE_SECRETS,
  KUBERNETES_SECRETS,
  readEnvFile,
  runGenerator,
  withoutSecrets,
} from '../support/deploy-secrets';

/**
 * `npm run env:generate` (scripts/generate-env.mjs): fresh secrets for docker-compose.yml in .env, or with
 * `--kubernetes` the keys of the Secret mcp-server, readable by the owner only, and never over an existing file
 * unless --force. Always run on files in a temporary folder, never on the repository's own .env.
 */
const ROOT = resolve(__dirname, '../..');
const mode = (file: string): number => statSync(file).mode & 0o777;

describe('npm run env:generate', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'env-generate-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is the npm script env:generate', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts['env:generate']).toBe('node scripts/generate-env.mjs');
  });

  it('writes .env at the repository root by default, with every compose secret, mode 0600, even under umask 000', () => {
    // A copy of the script and the compose file in a folder of its own: "the repository root" is then that folder.
    cpSync(join(ROOT, 'scripts/generate-env.mjs'), join(dir, 'scripts/generate-env.mjs'));
    cpSync(join(ROOT, 'docker-compose.yml'), join(dir, 'docker-compose.yml'));
    const run = spawnSync('sh', ['-c', 'umask 000 && exec "$0" scripts/generate-env.mjs', process.execPath], {
      cwd: dir,
      env: withoutSecrets(),
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    const file = join(dir, '.env');
    expect(mode(file)).toBe(0o600);
    const values = readEnvFile(file);
    expect(Object.keys(values)).toEqual([...COMPOSE_SECRETS]);
    for (const value of Object.values(values)) expect(value).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set(Object.values(values)).size).toBe(COMPOSE_SECRETS.length);
    // It names what it wrote, never the values.
    expect(run.stdout).toContain(COMPOSE_SECRETS.join(', '));
    for (const value of Object.values(values)) expect(run.stdout + run.stderr).not.toContain(value);
  });

  it("writes a fresh value for each other variable docker-compose.yml requires (an app's own service), once", () => {
    const root = join(dir, 'own');
    cpSync(join(ROOT, 'scripts/generate-env.mjs'), join(root, 'scripts/generate-env.mjs'));
    const required = (name: string) => `'\${${name}:?no .env: run npm run env:generate}'`;
    writeFileSync(
      join(root, 'docker-compose.yml'),
      [
        'services:',
        '  app:',
        '    environment:',
        `      REDIS_PASSWORD: ${required('REDIS_PASSWORD')}`,
        `      TEAM_API_KEY: ${required('TEAM_API_KEY')}`,
        `      OTHER: ${required('TEAM_API_KEY')}`,
        `      PLAIN: '\${NOT_A_SECRET:-x}'`,
        '',
      ].join('\n'),
    );
    const run = spawnSync(process.execPath, ['scripts/generate-env.mjs'], {
      cwd: root,
      env: withoutSecrets(),
      encoding: 'utf8',
    });
    expect(run.status).toBe(0);
    const values = readEnvFile(join(root, '.env'));
    expect(Object.keys(values)).toEqual([
      'KEYCLOAK_ADMIN_PASSWORD',
      'MCP_CLIENT_SECRET',
      'REDIS_PASSWORD',
      'MCP_REQUEST_STATE_SECRET',
      'TEAM_API_KEY',
    ]);
    expect(values.TEAM_API_KEY).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set(Object.values(values)).size).toBe(5);
  });

  it('gives different secrets on every run', () => {
    const [a, b] = ['a.env', 'b.env'].map((name) => {
      expect(runGenerator(['--out', join(dir, name)]).status).toBe(0);
      return readEnvFile(join(dir, name));
    });
    for (const key of COMPOSE_SECRETS) expect(a[key]).not.toBe(b[key]);
  });

  it('refuses to overwrite an existing file, saying how (--force), and leaves it as it was', () => {
    const file = join(dir, '.env');
    writeFileSync(file, 'REDIS_PASSWORD=the-one-the-stack-runs-with\n', { mode: 0o600 });
    const run = runGenerator(['--out', file]);
    expect(run.status).toBe(1);
    expect(run.output).toMatch(/exists: keeping it.*--force/);
    expect(readFileSync(file, 'utf8')).toBe('REDIS_PASSWORD=the-one-the-stack-runs-with\n');
    expect(mode(file)).toBe(0o600);
  });

  it('with --force, replaces every secret and leaves the file at 0600 whatever its mode was', () => {
    const file = join(dir, '.env');
    writeFileSync(file, 'REDIS_PASSWORD=old\n');
    chmodSync(file, 0o644);
    const run = runGenerator(['--force', '--out', file]);
    expect(run.status).toBe(0);
    expect(mode(file)).toBe(0o600);
    expect(Object.keys(readEnvFile(file))).toEqual([...COMPOSE_SECRETS]);
    expect(readEnvFile(file).REDIS_PASSWORD).not.toBe('old');
  });

  it('with --kubernetes, writes the Secret keys: REDIS_URL carries REDIS_PASSWORD (rediss:// with --tls)', () => {
    for (const tls of [false, true]) {
      const file = join(dir, `k8s-${tls}.env`);
      expect(runGenerator(['--kubernetes', ...(tls ? ['--tls'] : []), '--out', file]).status).toBe(0);
      expect(mode(file)).toBe(0o600);
      const values = readEnvFile(file);
      expect(Object.keys(values)).toEqual([...KUBERNETES_SECRETS]);
      expect(values.REDIS_URL).toBe(`${tls ? 'rediss' : 'redis'}://:${values.REDIS_PASSWORD}@redis:6379`);
      expect(values.MCP_REQUEST_STATE_SECRET).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('refuses what it does not understand, writing nothing', () => {
    const file = join(dir, '.env');
    const unknown = runGenerator(['--out', file, '--passwrod', 'x']);
    expect(unknown.status).toBe(1);
    expect(unknown.output).toMatch(/usage: npm run env:generate/);
    const tls = runGenerator(['--tls', '--out', file]);
    expect(tls.status).toBe(1);
    expect(tls.output).toMatch(/--tls applies to --kubernetes only/);
    expect(existsSync(file)).toBe(false);
  });
});
