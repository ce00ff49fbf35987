import { freePort } from './free-port';
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
/** `${NAME:?no .env: run npm run env:generate}`: a variable docker-compose.yml takes from .env only. */
const REQUIRED = /\$\{(\w+):\?no \.env: run npm run env:generate\}/g;

/** What `npm run env:generate` writes for the stack itself (docker-compose.yml), whatever the apps. */
export const STACK_SECRETS = [
  'KEYCLOAK_ADMIN_PASSWORD',
  'MCP_CLIENT_SECRET',
  'REDIS_PASSWORD',
  'MCP_REQUEST_STATE_SECRET',
] as const;
/**
 * What it writes for docker-compose.yml: the stack's, then each other variable the file requires with the message
 * naming the generator (a service of an app's own, its sidecar's key), in the order the file first names them.
 */
export const COMPOSE_SECRETS: readonly string[] = [
  ...STACK_SECRETS,
  ...new Set(
    [...readFileSync(resolve(ROOT, 'docker-compose.yml'), 'utf8').matchAll(REQUIRED)]
      .map((m) => m[1])
      .filter((name) => !(STACK_SECRETS as readonly string[]).includes(name)),
  ),
];
export const KUBERNETES_SECRETS = ['REDIS_PASSWORD', 'REDIS_URL', 'MCP_REQUEST_STATE_SECRET'] as const;

/** The machine's environment without any of the secrets: a developer's exported variable must not stand in. */
export function withoutSecrets(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  const secret = new Set<string>([...COMPOSE_SECRETS, ...KUBERNETES_SECRETS]);
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !secret.has(k)) env[k] = v;
  return { ...env, ...extra };
}

/** Runs scripts/generate-env.mjs (what `npm run env:generate` runs) with `args`; never on the repository's .env. */
export function runGenerator(args: string[]): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [resolve(ROOT, 'scripts/generate-env.mjs'), ...args], {
    cwd: ROOT,
    env: withoutSecrets(),
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** A fresh generated env file in a temporary folder (`--kubernetes` and `--tls` passed through). */
export function generatedEnv(...flags: string[]): { file: string; values: Record<string, string> } {
  const file = join(mkdtempSync(join(tmpdir(), 'mcp-env-')), '.env');
  const run = runGenerator([...flags, '--out', file]);
  if (run.status !== 0) throw new Error(`env:generate failed (${run.status}):\n${run.output}`);
  return { file, values: readEnvFile(file) };
}

/** KEY=VALUE lines as docker-compose and `kubectl --from-env-file` read them (comments and blank lines skipped). */
export function readEnvFile(file: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const at = line.indexOf('=');
    values[line.slice(0, at)] = line.slice(at + 1);
  }
  return values;
}

/**
 * A memory size in bytes as each tool reads it: docker (`mem_limit`: b, k, m, g, all powers of 1024), Kubernetes
 * (Ki, Mi, Gi binary; k, M, G decimal) or Redis (kb, mb, gb binary; k, m, g decimal: "200m" is 200,000,000).
 */
export function bytes(size: string | number, style: 'docker' | 'kubernetes' | 'redis'): number {
  if (typeof size === 'number') return size;
  const match = /^(\d+(?:\.\d+)?)([a-z]*)$/i.exec(size.trim());
  const units: Record<string, number> =
    style === 'docker'
      ? { '': 1, b: 1, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30 }
      : style === 'kubernetes'
        ? { '': 1, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, k: 1e3, M: 1e6, G: 1e9 }
        : { '': 1, b: 1, k: 1e3, kb: 2 ** 10, m: 1e6, mb: 2 ** 20, g: 1e9, gb: 2 ** 30 };
  const unit = style === 'kubernetes' ? match?.[2] : match?.[2].toLowerCase();
  if (!match || unit === undefined || !(unit in units)) throw new Error(`not a ${style} size: ${JSON.stringify(size)}`);
  return Number(match[1]) * units[unit];
}

/** A value after one flag of a command line (`--maxmemory 200mb`). */
export function flag(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

export interface LocalRedis {
  port: number;
  process: ChildProcess;
  /** redis-cli against this server; `auth` is sent as REDISCLI_AUTH (the deployment files' way). */
  cli(args: string[], auth?: string): string;
  stop(): Promise<void>;
}

/**
 * A redis-server of this machine started with a deployment file's arguments (password, maxmemory, policy), on a
 * free loopback port of its own (the TLS port with `tls`; later arguments override earlier ones): the machine's
 * Redis on 6379 is never touched. Needs redis-server (the test command installs it).
 */
export async function startRedis(args: readonly string[], options: { tls?: boolean } = {}): Promise<LocalRedis> {
  const port = await freePort();
  const listen = [options.tls ? '--tls-port' : '--port', String(port), '--bind', '127.0.0.1'];
  const child = spawn('redis-server', [...args, ...listen], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  child.once('error', (e) => (log += `\n${e.message}`));
  const cli = (cmd: string[], auth?: string): string => {
    const run = spawnSync('redis-cli', ['-p', String(port), ...cmd], {
      env: withoutSecrets(auth === undefined ? {} : { REDISCLI_AUTH: auth }),
      encoding: 'utf8',
      timeout: 10_000,
    });
    return `${run.stdout}${run.stderr}`.trim();
  };
  const deadline = Date.now() + 10_000;
  while (!/Ready to accept connections/.test(log)) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`redis-server did not start (needs redis-server on PATH):\n${log}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    process: child,
    cli,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
