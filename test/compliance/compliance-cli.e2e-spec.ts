import { rmSync } from 'node:fs';
import { RunningServer, startDeskHttp } from '../support/server-process';
import { BROKEN_CHANGELOG, BROKEN_README } from '../support/broken-mcp/broken-mcp.folder';
import { startBrokenMcpServer } from '../support/broken-mcp/broken-mcp.server';
import { buildComplianceTool, compliance, folderWith } from '../support/compliance-cli';
import { DESK_SKILLS_DIR } from '../support/skills-checks';

/**
 * `npm run compliance -- --url … --token …` against real servers: the desk fixture (the platform) passes every item
 * the tool checks in both checklists; a small server written without the platform, broken one defect at a time,
 * fails exactly the item of that defect, with its evidence; bad arguments and no server are exit 2.
 */
describe('npm run compliance against a running server', () => {
  let desk: RunningServer;
  beforeAll(async () => {
    buildComplianceTool();
    // With its skills: the ext.skills item reads each SKILL.md back against its digest.
    desk = await startDeskHttp({ MCP_SKILLS_DIR: DESK_SKILLS_DIR });
  }, 120_000);
  afterAll(() => desk?.stop());

  it('passes the platform on every item it checks, in both checklists, and says which items need a person', async () => {
    const { code, items, stderr } = await compliance(['--url', desk.url, '--token', desk.token!, '--format', 'json']);
    const failed = items.filter((i) => i.status === 'fail');
    expect({ code, failed }).toEqual({ code: 0, failed: [] });
    // Without the server's folder, its issuer's key or its log, what those show is left to the reviewer, saying so.
    const notPassed = items.filter((i) => i.status !== 'pass').map((i) => `${i.standard} ${i.id} ${i.status}`);
    const needs = ['http.payload-documented', 'auth.jwt', 'auth.no-passthrough', 'doc.readme', 'doc.changelog'];
    expect(notPassed).toEqual([
      ...needs.slice(0, 3).map((id) => `1.2 ${id} manual`),
      '1.2 obs.structured-logs manual',
      '1.2 obs.no-tokens-in-logs manual',
      ...needs.slice(3).map((id) => `1.2 ${id} manual`),
      ...needs.slice(0, 3).map((id) => `2.0 ${id} manual`),
      '2.0 obs.logs manual',
      ...needs.slice(3).map((id) => `2.0 ${id} manual`),
    ]);
    expect(items.find((i) => i.id === 'auth.jwt')!.evidence.join(' ')).toContain('--issuer-key');
    expect(items.find((i) => i.id === 'spec.conformance')).toMatchObject({ status: 'pass' });
    expect(items.find((i) => i.id === 'ext.skills')).toMatchObject({
      status: 'pass',
      evidence: [expect.stringContaining('2 skills; 2 SKILL.md files read back, matching digest and size')],
    });
    expect(stderr).toMatch(/^compliance: v1\.2: \d+ pass, 0 fail \(0 MUST\), \d+ manual, \d+ n\/a; v2\.0: /m);
    // Evidence never shows the token.
    expect(JSON.stringify(items)).not.toContain(desk.token!);
  }, 180_000);

  it('writes a Markdown report for the reviewer, its summary last', async () => {
    const { code, stdout } = await compliance(['--url', desk.url, '--token', desk.token!, '--standard', '1.2']);
    expect(code).toBe(0);
    expect(stdout).toContain('## Corporate MCP standard v1.2, §18');
    expect(stdout).toMatch(/\| pass \| MUST \| Authentication \| `auth.www-authenticate`/);
    expect(stdout.trimEnd().split('\n').at(-1)).toMatch(/^compliance: v1\.2: \d+ pass, 0 fail \(0 MUST\)/);
  }, 120_000);

  describe('the documentation items, from the server’s folder (--dir)', () => {
    const README = BROKEN_README;
    const CHANGELOG = BROKEN_CHANGELOG;
    const statusOf = async (files: Record<string, string> | undefined) => {
      const server = await startBrokenMcpServer();
      const dir = files && folderWith(files);
      try {
        const args = ['--url', server.url, '--token', server.token, '--format', 'json', '--skip', 'spec.conformance'];
        if (dir) args.push('--dir', dir);
        const { code, items } = await compliance(args);
        const pick = (id: string) => items.find((i) => i.id === id)!;
        return { code, readme: pick('doc.readme'), changelog: pick('doc.changelog') };
      } finally {
        await server.close();
        if (dir) rmSync(dir, { recursive: true, force: true });
      }
    };

    it('passes a README naming every tool and a Keep a Changelog CHANGELOG.md; without --dir both are manual', async () => {
      const good = await statusOf({ 'README.md': README, 'CHANGELOG.md': CHANGELOG });
      expect([good.code, good.readme.status, good.changelog.status]).toEqual([0, 'pass', 'pass']);
      const none = await statusOf(undefined);
      expect([none.readme.status, none.changelog.status]).toEqual(['manual', 'manual']);
      expect(none.readme.evidence.join(' ')).toContain('--dir');
    }, 60_000);

    it('fails a README that does not name a tool, and a CHANGELOG.md that is missing or not Keep a Changelog shaped', async () => {
      const unnamed = await statusOf({ 'README.md': '# status service\n', 'CHANGELOG.md': CHANGELOG });
      expect([unnamed.code, unnamed.readme.status, unnamed.changelog.status]).toEqual([1, 'fail', 'pass']);
      expect(unnamed.readme.evidence.join(' ')).toContain(
        'does not name the tools get_status, list_incidents, restart_service',
      );
      const odd = await statusOf({
        'README.md': README,
        'CHANGELOG.md': CHANGELOG.replace('### Fixed', '### Improvements'),
      });
      expect([odd.readme.status, odd.changelog.status]).toEqual(['pass', 'fail']);
      expect(odd.changelog.evidence.join(' ')).toContain('"### Improvements" is not a Keep a Changelog kind');
      const missing = await statusOf({ 'README.md': README });
      expect(missing.changelog).toMatchObject({
        status: 'fail',
        evidence: [expect.stringContaining('CHANGELOG.md: missing')],
      });
    }, 60_000);
  });

  it('exits 2 for bad arguments and when no server answers', async () => {
    expect((await compliance([])).code).toBe(2);
    expect((await compliance(['--url', 'not a url'])).stderr).toMatch(/--url is not a URL/);
    expect((await compliance(['--url', desk.url, '--standard', '3.0'])).code).toBe(2);
    const nobody = await compliance(['--url', 'http://127.0.0.1:9/mcp']);
    expect(nobody.code).toBe(2);
    expect(nobody.stderr).toMatch(/no server answers at http:\/\/127\.0\.0\.1:9/);
    expect((await compliance(['--url', desk.url, '--dir', '/nonexistent/folder'])).code).toBe(2);
  });
});
