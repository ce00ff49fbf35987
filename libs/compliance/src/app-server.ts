import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { appProjects, buildApp } from '@app/contract';
import { LocalIssuer } from './auth/local-issuer';
import { TokenMint } from './auth/token-mint';
import { HttpProbe } from './http-probe';
import { StdioAnswer, initializeOverStdio } from './stdio-probe';

/** An app of the repository, started by the command for its own check. */
export interface StartedApp {
  url: URL;
  token: string;
  mint: TokenMint;
  /** The app's folder (README.md, CHANGELOG.md, mcp-contract.json). */
  dir: string;
  /** What the app has written to stdout and stderr so far (its first 8 MiB). */
  logs(): string;
  /** Starts the app again over stdio, in the same configuration, and sends `initialize`. */
  stdio(): Promise<StdioAnswer>;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 60_000;
const MAX_LOG_CHARS = 8 * 1_048_576;

/** A failure to start the app: the command reports it and exits 2, as for a server that cannot be reached. */
export class AppStartError extends Error {}

/**
 * Builds an app under `apps/` (skipped when nothing it reads changed), starts it in its production configuration
 * (`NODE_ENV=production`, tokens checked against a JWKS issuer: a local one started here) on a free loopback port,
 * with the caller's environment otherwise (a team's `MCP_REDIS_URL`, say), and mints a token carrying every scope
 * the app declares (read from its `use://auth` resource).
 */
export async function startApp(repo: string, name: string): Promise<StartedApp> {
  const apps = appProjects(repo);
  const app = apps.find((a) => a.name === name);
  if (!app)
    throw new AppStartError(`unknown app "${name}"; the apps under apps/ are: ${apps.map((a) => a.name).join(', ')}`);
  let entry: string;
  try {
    entry = buildApp(repo, app);
  } catch (error) {
    throw new AppStartError((error as Error).message);
  }
  const issuer = await LocalIssuer.start(`mcp:${app.name}`);
  const env = {
    ...process.env,
    NODE_OPTIONS: '',
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: '0',
    MCP_METRICS_PORT: '0',
    ...issuer.env(),
  };
  const child = spawn(process.execPath, [entry], { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let logged = '';
  const keep = (chunk: Buffer) => {
    if (logged.length < MAX_LOG_CHARS) logged += chunk.toString();
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const stop = async () => {
    await stopChild(child);
    await issuer.close();
  };
  try {
    const url = new URL(await listening(child));
    const mint = await TokenMint.of(issuer.key);
    const scope = await declaredScopes(new HttpProbe(url, await mint.mint()));
    const token = await mint.mint({ scope, ttlSec: 3_600 });
    let overStdio: Promise<StdioAnswer> | undefined;
    const stdio = () => (overStdio ??= initializeOverStdio(entry, repo, env));
    return { url, token, mint, dir: join(repo, app.root), logs: () => logged, stdio, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Waits for the platform's "listening on <url>" line; the app's last words when it exits or hangs instead. */
function listening(child: ChildProcess): Promise<string> {
  let err = '';
  return new Promise((resolve, reject) => {
    const tail = () => err.trim().split('\n').slice(-15).join('\n');
    const timer = setTimeout(
      () => reject(new AppStartError(`the app did not start within ${START_TIMEOUT_MS / 1000} s:\n${tail()}`)),
      START_TIMEOUT_MS,
    );
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new AppStartError(`the app exited (${code}) in production configuration:\n${tail()}`));
    });
  });
}

/** Every scope the app's tools, prompts and resources require, space-separated ('' when none or unreadable). */
async function declaredScopes(probe: HttpProbe): Promise<string> {
  const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'resources/read', 'mcp-name': 'use://auth' };
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'compliance', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const read = await probe.post(
    { jsonrpc: '2.0', id: 'scopes', method: 'resources/read', params: { uri: 'use://auth', _meta: meta } },
    { headers },
  );
  try {
    const text = (read.body?.result?.contents?.[0]?.text as string | undefined) ?? '{}';
    const scopes = (JSON.parse(text) as { scopes?: Record<string, unknown> }).scopes ?? {};
    return Object.keys(scopes).join(' ');
  } catch {
    return '';
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
