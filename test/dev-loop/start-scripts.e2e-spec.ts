import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { freeAppName } from '../support/free-app-name';
import { copyRepository, run } from '../support/repo-copy';
import { RunningServer, startHttpServer } from '../support/server-process';
import { serverEnv } from '../support/stdio-clients';
import { NODE_FLAGS } from '../../scripts/lib/node-flags.mjs';

/**
 * The README's start commands, run exactly as documented (through npm, on the project's Node 24), against the
 * desk fixture app: `npm run -s start:stdio -- <app>` must keep stdout to MCP messages only (npm's
 * banner and the build's output would break a strict stdio client), and an unknown app is a clear error.
 */
const ROOT = resolve(__dirname, '../..');
const STDIO_COMMAND = ['run', '-s', 'start:stdio', '--', 'desk'];

describe('npm start scripts', () => {
  jest.setTimeout(120_000);

  it('`npm run -s start:stdio -- <app>` serves an official SDK client over stdio', async () => {
    const transport = new StdioClientTransport({
      command: 'npm',
      args: STDIO_COMMAND,
      cwd: ROOT,
      env: serverEnv(),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'start-scripts-e2e', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'desk' });
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('search_tickets');
      const result = await client.callTool({ name: 'search_tickets', arguments: { query: 'vpn' } });
      expect(result.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it('`npm run -s start:stdio -- <app>` writes nothing but JSON-RPC messages on stdout, and exits 0 when stdin closes', async () => {
    const child = spawn('npm', STDIO_COMMAND, { cwd: ROOT, env: serverEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    child.stdin.write(`${JSON.stringify(init)}\n`);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
    await waitFor(
      () => stdout.split('\n').filter(Boolean).length >= 2,
      () => stderr,
    );
    child.stdin.end();
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    const lines = stdout.split('\n').filter((l) => l.length > 0);
    expect(lines.length).toBe(2);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(JSON.parse(lines[1]).result.tools.length).toBeGreaterThan(0);
    expect(code).toBe(0);
  });

  it('a SIGINT sent to `npm start`’s own process id stops the server, and npm exits', async () => {
    // Its own process group, so that a failed test can stop the script and the server too (below).
    const npm = spawn('npm', ['start', '--', 'desk'], {
      cwd: ROOT,
      env: serverEnv({ PORT: '0', MCP_METRICS_PORT: 'false', FORCE_COLOR: '0' }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    npm.stdout.on('data', (d: Buffer) => (output += d.toString()));
    npm.stderr.on('data', (d: Buffer) => (output += d.toString()));
    let exited = false;
    npm.on('exit', () => (exited = true));
    try {
      await waitFor(
        () => /desk MCP server listening on http:\/\/127\.0\.0\.1:\d+\/mcp/.test(output),
        () => output,
        120_000,
      );
      const health = /listening on (http:\/\/[^\s]+)/.exec(output)![1].replace('/mcp', '/health');
      expect((await fetch(health)).status).toBe(200);
      // The server runs with the image's Node flags (scripts/lib/node-flags.mjs), as the container's CMD does.
      const server = descendants(npm.pid!).find((argv) => argv.some((a) => a.endsWith('main.js')));
      expect(server).toEqual(expect.arrayContaining([...NODE_FLAGS]));
      process.kill(npm.pid!, 'SIGINT'); // npm only: not its process group, as a terminal's Ctrl-C would
      await waitFor(
        () => exited,
        () => `npm did not exit after SIGINT:\n${output}`,
      );
      // npm waits for its script, which waits for the server: nothing answers any more.
      await expect(fetch(health)).rejects.toThrow();
    } finally {
      if (!exited) process.kill(-npm.pid!, 'SIGKILL');
    }
  });

  it('`npm start -- <unknown>` fails with exit 2 and lists the apps', () => {
    const run = spawnSync('npm', ['run', '-s', 'start', '--', 'no-such-app'], {
      cwd: ROOT,
      env: serverEnv(),
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    // The apps a team runs, not the library's test fixtures.
    expect(run.stderr).toMatch(/^unknown app "no-such-app"; the apps under apps\/ are: .*$/m);
    expect(run.stderr).not.toMatch(/\b(desk|conformance)\b/);
    expect(run.stdout).toBe('');
  });
});

describe('npm run start:dev (in a temporary copy of the repository)', () => {
  jest.setTimeout(180_000);
  let dir: string;
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('serves the app, and rebuilds and restarts it when a source file changes', async () => {
    dir = copyRepository('mcp-start-dev-');
    const child = spawn('npm', ['run', 'start:dev', '--', 'desk'], {
      cwd: dir,
      env: serverEnv({ PORT: '0', MCP_METRICS_PORT: '0', FORCE_COLOR: '0' }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group: npm, nest's watcher and the server stop together
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const starts = () => output.match(/desk MCP server listening on http:\/\/127\.0\.0\.1:\d+\/mcp/g)?.length ?? 0;
    try {
      await waitFor(
        () => starts() === 1,
        () => output,
        120_000,
      );
      const url = /listening on (http:\/\/[^\s]+)/.exec(output)![1];
      expect((await fetch(url.replace('/mcp', '/health'))).status).toBe(200);
      appendFileSync(join(dir, 'test/fixtures/desk/src/main.ts'), '// edited while watching\n');
      await waitFor(
        () => starts() === 2,
        () => output,
        120_000,
      );
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
    }
  });
});

describe('npm start builds only what changed (in a temporary copy of the repository)', () => {
  jest.setTimeout(240_000);
  let dir: string;
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('skips the build of an unchanged app, and a rebuild leaves a running server’s files in place', async () => {
    dir = copyRepository('mcp-start-fresh-');
    const build = () => run(dir, 'npm', ['run', '-s', 'build', '--', 'desk']);
    expect(build()).not.toContain('build up to date');
    expect(build()).toContain('desk: build up to date (nothing changed since the last one)');
    // A new app changes nest-cli.json, but nothing this one's build reads from it.
    const other = freeAppName(dir, 'orders');
    run(dir, 'npm', ['run', '-s', 'g', '--', 'mcp-server', other]);
    expect(JSON.parse(readFileSync(join(dir, 'nest-cli.json'), 'utf8')).projects[other]).toBeDefined();
    expect(build()).toContain('desk: build up to date (nothing changed since the last one)');
    // Nor does a library's unit spec: no app's build compiles specs (tsconfig.app.json excludes them).
    const spec = readdirSync(join(dir, 'libs/mcp/src'), { recursive: true }).find((f) =>
      String(f).endsWith('.spec.ts'),
    );
    appendFileSync(join(dir, 'libs/mcp/src', String(spec)), '// an edited spec\n');
    expect(build()).toContain('desk: build up to date (nothing changed since the last one)');
    const entry = join(dir, 'dist/fixtures/desk/test/fixtures/desk/src/main.js');
    server = await startHttpServer(entry, { MCP_AUTH_DISABLED: 'true' }, dir);
    appendFileSync(join(dir, 'test/fixtures/desk/src/main.ts'), '// edited while running\n');
    expect(build()).not.toContain('build up to date');
    expect(readFileSync(entry, 'utf8')).toContain('// edited while running');
    expect(server.process.exitCode).toBeNull();
    expect((await fetch(new URL('/health', server.url))).status).toBe(200);
  });
});

async function waitFor(done: () => boolean, context: () => string, timeoutMs = 60_000): Promise<void> {
  const start = Date.now();
  while (!done()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out; stderr:\n${context()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The command lines of every process below `pid` (Linux: read from /proc). */
function descendants(pid: number): string[][] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      // The command name in parentheses may hold spaces: the parent id is the second field after it.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended while the list was read.
    }
  }
  const below = (p: number): boolean => p > 1 && (parentOf.get(p) === pid || below(parentOf.get(p) ?? 0));
  return [...parentOf.keys()].filter(below).flatMap((p) => {
    try {
      return [readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').filter(Boolean)];
    } catch {
      return [];
    }
  });
}
