import { startBrokenMcpServer } from '../support/broken-mcp/broken-mcp.server';
import { buildComplianceTool, compliance } from '../support/compliance-cli';
import {
  HostileServer,
  startCountingServer,
  startEndlessServer,
  startRedirectingFront,
  startRedirectingServer,
  startSilentServer,
} from '../support/hostile-http';

/** The byte cap the command documents (docs/compliance.md#safety). */
const CAP = 4 * 1_048_576;
/**
 * What the hostile server may get written before the command stops reading: the cap, plus what the loopback sockets
 * of two requests in flight buffer on both sides (a few MiB each at most). Without a cap it is gigabytes.
 */
const MOST_SENT = CAP + 48 * 1_048_576;

/** Waits until `done()` holds, at most `tries` times 50 ms (the condition, not the clock, decides). */
async function until(done: () => boolean, tries = 200): Promise<boolean> {
  for (let i = 0; i < tries && !done(); i++) await new Promise((ok) => setTimeout(ok, 50));
  return done();
}

/**
 * `npm run compliance -- --url` against servers that attack the command: an endless answer (a JSON body, an SSE
 * stream, a body declared as 3 GB), a server that never answers, a redirect to another server. The command reads at
 * most its cap, stops at its deadline, follows no redirect, and says so in its report with exit 2 (1 for a graded
 * server whose redirects fail items).
 */
describe('npm run compliance against a hostile server', () => {
  const servers: HostileServer[] = [];
  beforeAll(() => buildComplianceTool(), 120_000);
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it.each(['json', 'sse', 'declared'] as const)(
    'stops reading a %s answer at the cap, reports that the run stopped, and exits 2',
    async (kind) => {
      const server = await startEndlessServer(kind);
      servers.push(server);
      const { code, stderr, stdout } = await compliance(['--url', server.url, '--format', 'json']);
      // The command stopped reading: the server's answers end (their sockets close) and little was ever sent.
      expect(await until(() => server.open() === 0)).toBe(true);
      expect(server.sent()).toBeLessThan(MOST_SENT);
      expect(code).toBe(2);
      const report = JSON.parse(stdout) as { stopped?: string; header: { stopped?: string } };
      expect(report.stopped).toMatch(
        /the answer to POST \/mcp (initialize|server\/discover) passed 4194304 bytes \(4 MiB\)/,
      );
      expect(report.header.stopped).toBe(report.stopped);
      expect(stderr).toMatch(/^compliance: the run stopped: the answer to POST \/mcp/m);
    },
    120_000,
  );

  it('stops at its deadline against a server that never answers, says so, and sends nothing more', async () => {
    const server = await startSilentServer();
    servers.push(server);
    const { code, stdout, stderr } = await compliance(['--url', server.url, '--deadline', '2']);
    expect(code).toBe(2);
    expect(stdout).toContain("**The run stopped: the run's deadline of 2 s passed.**");
    expect(stdout).toContain("- Bounds: every answer read up to 4 MiB; the run's deadline 2 s");
    expect(stderr + stdout).toMatch(/^compliance: the run stopped: the run's deadline of 2 s passed/m);
    // Only what was in flight at the deadline was sent (initialize and server/discover), and it was let go.
    expect(server.requests.filter((r) => r.startsWith('POST'))).toEqual(['POST /mcp', 'POST /mcp']);
    expect(await until(() => server.open() === 0)).toBe(true);
  }, 60_000);

  it('refuses a bad --deadline before sending anything', async () => {
    const server = await startSilentServer();
    servers.push(server);
    for (const value of ['0', 'soon', '-5', '1.5']) {
      const { code, stderr } = await compliance(['--url', server.url, '--deadline', value]);
      expect([value, code, stderr]).toEqual([value, 2, expect.stringContaining('--deadline must be a whole number')]);
    }
    expect(server.requests).toEqual([]);
  }, 60_000);

  it('follows no redirect to another origin: the other server receives nothing, and the report says so', async () => {
    const other = await startCountingServer();
    const broken = await startBrokenMcpServer();
    const front = await startRedirectingFront(broken.url, 'tools/list', `${other.origin}/mcp`);
    servers.push(other, front, { close: broken.close } as HostileServer);
    // The conformance step runs too: its proxy must not pass the redirect on to the suite either.
    const { code, stdout } = await compliance(['--url', front.url, '--token', broken.token, '--format', 'json']);
    const report = JSON.parse(stdout) as {
      header: { redirects: string[] };
      items: { id: string; status: string; evidence: string[] }[];
    };
    expect(other.requests).toEqual([]);
    expect(code).toBe(1);
    const target = `${other.origin}/mcp (another origin)`;
    expect(report.header.redirects).toEqual(
      expect.arrayContaining([`POST /mcp tools/list -> ${target}`, expect.stringMatching(/^the conformance suite's /)]),
    );
    const fields = report.items.find((i) => i.id === 'tools.fields')!;
    expect(fields.status).toBe('not_applicable');
    expect(fields.evidence.join(' ')).toContain(`-> 307 (a redirect to ${target}, not followed)`);
    const markdown = await compliance(['--url', front.url, '--token', broken.token, '--skip', 'spec.conformance']);
    expect(markdown.stdout).toContain(`**Redirects not followed** (the command follows none, so no other server is`);
    expect(other.requests).toEqual([]);
  }, 180_000);

  it('says why nothing was checked when every answer is a redirect to another origin', async () => {
    const other = await startCountingServer();
    const server = await startRedirectingServer(`${other.origin}/mcp`);
    servers.push(other, server);
    const { code, stderr } = await compliance(['--url', server.url]);
    expect(other.requests).toEqual([]);
    expect(code).toBe(2);
    expect(stderr).toContain('answers neither initialize nor server/discover (it answered with redirects');
    expect(stderr).toContain(`POST /mcp initialize -> ${other.origin}/mcp (another origin)`);
  }, 60_000);
});
