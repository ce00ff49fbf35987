import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { suiteRedis } from '../support/replicas';
import { serverEnv } from '../support/stdio-clients';
import { TestIssuer } from '../support/test-issuer';
import { waitFor } from '../support/wait';

/**
 * `npm run start:replicas -- <app> [N]` as documented: N replicas on Redis behind a round-robin proxy. A session
 * lives through requests that alternate between replicas (so its state is shared), every replica serves some of
 * them; a replica killed with SIGKILL is named (with its signal) and left out while the others keep serving; and one
 * Ctrl-C stops the proxy and every replica left.
 */
const ROOT = resolve(__dirname, '../..');

describe('npm run start:replicas', () => {
  jest.setTimeout(120_000);
  const redis = suiteRedis();
  let issuer: TestIssuer;
  let child: ChildProcess;
  let output = '';

  beforeAll(async () => {
    issuer = await TestIssuer.start();
    child = spawn('npm', ['run', '-s', 'start:replicas', '--', 'desk', '3'], {
      cwd: ROOT,
      env: serverEnv({ ...issuer.env(), PORT: '0', MCP_REDIS_PREFIX: redis.prefix, LOG_LEVEL: 'warn' }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // a process group of its own, as in a terminal: Ctrl-C reaches npm, the script and replicas
    });
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const deadline = Date.now() + 90_000;
    while (!/behind (http:\/\/\S+)/.test(output)) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no proxy:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    await issuer?.close();
    await redis.cleanup();
  });

  it('starts three replicas, each on its own port and metrics port, and says where the proxy listens', () => {
    expect(output).toMatch(
      /3 replicas on Redis \(127\.0\.0\.1:6379\) behind http:\/\/127\.0\.0\.1:\d+\/mcp, round robin/,
    );
    const listening = [...output.matchAll(/desk MCP server listening on (\S+)/g)].map((m) => m[1]);
    const metrics = [...output.matchAll(/desk metrics on (\S+)/g)].map((m) => m[1]);
    expect(new Set(listening).size).toBe(3);
    expect(new Set(metrics).size).toBe(3);
  });

  it('serves one session through the proxy while its requests go round robin over the replicas', async () => {
    const url = /behind (http:\/\/\S+),/.exec(output)![1];
    const client = new Client({ name: 'replicas', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { Authorization: `Bearer ${await issuer.mint()}` } },
      }),
    );
    try {
      for (let i = 0; i < 6; i++) {
        const result = await client.callTool({ name: 'search_tickets', arguments: { query: 'vpn' } });
        expect(result.isError).toBeFalsy();
      }
    } finally {
      await client.close();
    }
    // Every replica served some of the calls (each counts its own in mcp_tool_calls_total), together all six.
    const metrics = [...output.matchAll(/desk metrics on (\S+)/g)].map((m) => m[1]);
    const counts = await Promise.all(metrics.map(toolCalls));
    for (const count of counts) expect(count).toBeGreaterThan(0);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(6);
    expect((await redis.redis.keys(`${redis.prefix}*`)).length).toBeGreaterThan(0);
  });

  it('names a replica killed with SIGKILL and keeps serving through the others (it is not restarted)', async () => {
    const launched = [...output.matchAll(/replica (\d) \(pid (\d+)\) serving on (\S+)/g)].map((m) => ({
      i: m[1],
      pid: Number(m[2]),
      origin: m[3],
    }));
    expect(launched).toHaveLength(3);
    const [victim, ...survivors] = [launched[1], launched[0], launched[2]];
    const metrics = [...output.matchAll(/desk metrics on (\S+)/g)].map((m) => m[1]);
    const before = await Promise.all(metrics.map(toolCalls));
    process.kill(victim.pid, 'SIGKILL');
    const died = new RegExp(
      `replica ${victim.i} \\(pid ${victim.pid}, ${victim.origin}\\) died: killed by SIGKILL; not restarted, ` +
        '2 of 3 replicas still serving',
    );
    await waitFor(() => died.test(output), 30_000, `the launcher to name replica ${victim.i} as dead`);
    // A new session through the proxy: every call answered, spread over the two replicas left.
    const url = /behind (http:\/\/\S+),/.exec(output)![1];
    const client = new Client({ name: 'replicas-after-kill', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { Authorization: `Bearer ${await issuer.mint()}` } },
      }),
    );
    try {
      for (let i = 0; i < 6; i++) {
        const result = await client.callTool({ name: 'search_tickets', arguments: { query: 'vpn' } });
        expect(result.isError).toBeFalsy();
      }
    } finally {
      await client.close();
    }
    // The two metrics pages still answering (the killed replica's is gone) counted all six calls between them.
    const after = await Promise.all(metrics.map((m) => toolCalls(m).catch(() => undefined)));
    const served = after.flatMap((count, n) => (count === undefined ? [] : [count - before[n]]));
    expect(served).toHaveLength(2);
    for (const count of served) expect(count).toBeGreaterThan(0);
    expect(served.reduce((a, b) => a + b, 0)).toBe(6);
    for (const { origin } of survivors) expect((await fetch(new URL('/health', origin))).status).toBe(200);
    await expect(fetch(new URL('/health', victim.origin))).rejects.toThrow();
    expect(output).not.toMatch(/replica \d exited with/);
  });

  it('stops the proxy and every replica left on Ctrl-C (SIGINT to the process group)', async () => {
    const replicas = [...output.matchAll(/replica \d \(pid \d+\) serving on (\S+)/g)].map((m) => new URL(m[1]));
    const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
    process.kill(-child.pid!, 'SIGINT');
    await exited;
    await waitFor(() => (output.match(/replica \d exited/g) ?? []).length >= 2, 15_000, 'both replicas to exit');
    expect((output.match(/replica \d exited with 0/g) ?? []).length).toBe(2);
    for (const url of replicas) await expect(fetch(new URL('/health', url))).rejects.toThrow();
  });
});

/** `mcp_tool_calls_total` of search_tickets on one replica's metrics page. */
async function toolCalls(metricsUrl: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('mcp_tool_calls_total{') && line.includes('tool="search_tickets"'))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}
