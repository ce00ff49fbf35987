import { ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { TestIssuer } from './test-issuer';
import { reportStreamErrors } from './child-streams';
import { authorize } from './raw-mcp-http';

/** The desk fixture's tools, in registration order (2025 lists) and in name order (2026-07-28 lists). */
export const DESK_TOOLS = [
  'search_tickets',
  'get_ticket',
  'create_ticket',
  'close_ticket',
  'export_tickets',
  'draft_reply',
];
export const DESK_TOOLS_BY_NAME = [...DESK_TOOLS].sort();

/** The built example server (the test command builds it first). */
export const DESK_MAIN = resolve(__dirname, '../../dist/fixtures/desk/test/fixtures/desk/src/main.js');

/** The minimal fixture: an app with none of the optional modules (Nest's own logger, no telemetry). */
export const MINIMAL_MAIN = resolve(
  __dirname,
  '../../dist/fixtures/desk/test/fixtures/desk/src/minimal/minimal.main.js',
);

export interface RunningServer {
  url: string;
  /** A valid token (scopes tickets:read and tickets:write) from the test issuer the server trusts, when it has one. */
  token?: string;
  issuer?: TestIssuer;
  process: ChildProcess;
  stderr: () => string;
  stdout?: () => string;
  stop(): Promise<number | null>;
}

/**
 * Starts the built desk over HTTP on an ephemeral loopback port and waits until it listens. It
 * trusts a fresh {@link TestIssuer} (a real JWKS on loopback) unless `env` configures auth itself;
 * `token` is then a valid token with the desk's scopes.
 */
export async function startDeskHttp(env: Record<string, string> = {}): Promise<RunningServer> {
  if (env.MCP_JWKS_URI || env.MCP_AUTH_DISABLED) return startHttpServer(DESK_MAIN, env);
  const issuer = await TestIssuer.start();
  const server = await startHttpServer(DESK_MAIN, { ...issuer.env(), ...env }).catch(async (e) => {
    await issuer.close();
    throw e;
  });
  const stop = server.stop;
  return { ...server, issuer, token: await issuer.mint(), stop: () => stop().finally(() => issuer.close()) };
}

/** {@link startDeskHttp}, with its token registered for the raw helpers' requests (see `authorize`). */
export async function startAuthorizedDesk(env: Record<string, string> = {}): Promise<RunningServer> {
  const server = await startDeskHttp(env);
  authorize(server);
  return server;
}

/** The desk with the legacy HTTP+SSE transport on, authorised; `base` is its origin (`/sse` and `/messages`). */
export async function startLegacySseDesk(): Promise<{ server: RunningServer; base: string }> {
  const server = await startAuthorizedDesk({ MCP_LEGACY_SSE: 'true' });
  return { server, base: new URL(server.url).origin };
}

/** `Authorization` header for a running server's token. */
export const bearer = (server: RunningServer): Record<string, string> =>
  server.token ? { Authorization: `Bearer ${server.token}` } : {};

/** Starts a built server entry on an ephemeral loopback port; it must print "listening on <url>". */
export function startHttpServer(main: string, env: Record<string, string> = {}, cwd?: string): Promise<RunningServer> {
  const child = spawn(process.execPath, [main], {
    // MCP_METRICS_PORT=0: servers run side by side, each with its own free metrics port.
    env: { ...process.env, NODE_OPTIONS: '', HOST: '127.0.0.1', PORT: '0', MCP_METRICS_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd,
  });
  let err = '';
  let out = '';
  reportStreamErrors(child, (line) => (err += line));
  return new Promise((resolvePromise, reject) => {
    // A guard against a hang, not an expectation of speed: three replicas booting at once on a machine whose two cores
    // are shared with other suites' servers have taken longer than 20 s.
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${err}`)), 60_000);
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /listening on (http:\/\/[^\s]+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolvePromise({ url: m[1], process: child, stderr: () => err, stdout: () => out, stop: () => stop(child) });
      }
    });
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${err}`));
    });
  });
}

function stop(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((r) => {
    child.once('exit', (code) => r(code));
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
  });
}
