import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { DESK_MAIN, MINIMAL_MAIN, RunningServer, startHttpServer } from './support/server-process';

const run = promisify(execFile);
const TOKEN_SCRIPT = resolve(__dirname, '../scripts/token.mjs');

/**
 * The README's first command on a machine with no issuer configured: the server starts a local
 * development issuer, prints a token that works, and `npm run token` mints more with the same key.
 */
describe('first run: the local development issuer', () => {
  let dir: string;
  let server: RunningServer;
  const env = {
    NODE_ENV: 'development',
    MCP_JWKS_URI: '',
    MCP_JWT_ISSUER: '',
    MCP_JWT_AUDIENCE: '',
    MCP_AUTH_DISABLED: '',
  };

  const call = async (token: string, tool: string, args: Record<string, unknown>) => {
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
    };
    const init = await fetch(server.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'first-run', version: '1' } },
      }),
    });
    expect(init.status).toBe(200);
    const session = init.headers.get('mcp-session-id')!;
    return fetch(server.url, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': session },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: tool, arguments: args } }),
    });
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-first-run-'));
    server = await startHttpServer(DESK_MAIN, env, dir);
  });
  afterAll(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints a ready-to-use token that calls a tool', async () => {
    const printed = /Development token[^\n]*\n(?:\S*\s)?(eyJ[\w-]+\.[\w-]+\.[\w-]+)/.exec(
      // eslint-disable-next-line no-control-regex -- ANSI colour codes are control characters by definition
      server.stderr().replace(/\u001b\[[0-9;]*m/g, ''),
    );
    expect(printed).not.toBeNull();
    const res = await call(printed![1], 'search_tickets', { query: 'vpn', limit: 1 });
    expect(res.status).toBe(200);
    expect(
      ((await res.json()) as { result: { structuredContent: { count: number } } }).result.structuredContent.count,
    ).toBe(1);
  });

  it('keeps its key private on disk and `npm run token` mints scoped tokens with it', async () => {
    expect(statSync(join(dir, '.mcp-dev', 'issuer-key.json')).mode & 0o077).toBe(0);
    const { stdout } = await run(process.execPath, [TOKEN_SCRIPT, '--scope', 'tickets:read', '--sub', 'alice'], {
      cwd: dir,
    });
    const token = stdout.trim();
    expect((await call(token, 'search_tickets', {})).status).toBe(200);
    const write = await call(token, 'create_ticket', {
      title: 'Keyboard missing keys',
      description: 'x',
      category: 'hardware',
      priority: 'low',
      requester: 'a@example.com',
      idempotencyKey: 'first-run-0001',
    });
    expect(write.status).toBe(403);
    expect(write.headers.get('www-authenticate')).toContain('scope="tickets:read tickets:write"');
  });

  it('keeps minting for the running app when another app fails to start beside it (its port taken)', async () => {
    const port = new URL(server.url).port;
    const failed = await startHttpServer(MINIMAL_MAIN, { ...env, PORT: port }, dir).then(
      () => 'started',
      (e: Error) => e.message,
    );
    expect(failed).toMatch(/exited with[\s\S]*EADDRINUSE[^\n]*: stop it or set PORT\)/);
    const { stdout } = await run(process.execPath, [TOKEN_SCRIPT], { cwd: dir });
    expect((await call(stdout.trim(), 'search_tickets', {})).status).toBe(200);
  });

  it('`npm run token` answers --help with its usage and an unknown option with one line and the usage (exit 2)', async () => {
    const help = await run(process.execPath, [TOKEN_SCRIPT, '--help'], { cwd: dir });
    expect(help.stdout).toContain('Usage: npm run token -- [--app <service>]');
    const bad = await run(process.execPath, [TOKEN_SCRIPT, '--scopes', 'x'], { cwd: dir }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^Unknown option '--scopes'/);
    expect(bad.stderr).toContain('Usage: npm run token');
    expect(bad.stderr).not.toMatch(/\bat .*\.m?js:\d+/); // no stack trace
  });

  it('does not start the development issuer in production: the boot stops, naming what is missing', async () => {
    const failed = await startHttpServer(DESK_MAIN, { ...env, NODE_ENV: 'production' }, dir).then(
      () => 'started',
      (e: Error) => e.message,
    );
    expect(failed).toMatch(/exited with 1[\s\S]*missing MCP_JWKS_URI, MCP_JWT_ISSUER, MCP_JWT_AUDIENCE/);
  });
});
