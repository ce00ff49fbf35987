import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { RunningServer, startDeskHttp } from '../support/server-process';
import { Defects, startBrokenMcpServer } from '../support/broken-mcp-server';

const ROOT = resolve(__dirname, '../..');
const CLI = resolve(ROOT, 'dist/tools/compliance/compliance/src/compliance.cli.js');

interface Item {
  id: string;
  standard: string;
  level: string;
  status: string;
  evidence: string[];
}

/**
 * Runs `npm run compliance`'s program (built once in beforeAll) and reads its JSON report. Not spawnSync: the broken
 * servers answer from this very process.
 */
async function compliance(args: string[]): Promise<{ code: number; items: Item[]; stderr: string; stdout: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const [code] = (await once(child, 'close')) as [number];
  let items: Item[] = [];
  try {
    items = (JSON.parse(stdout) as { items: Item[] }).items;
  } catch {
    // not JSON (Markdown asked for, or an error): the caller looks at stdout
  }
  return { code, items, stderr, stdout };
}

const byId = (items: Item[], standard: string) =>
  Object.fromEntries(items.filter((i) => i.standard === standard).map((i) => [i.id, i.status]));

/**
 * `npm run compliance -- --url … --token …` against real servers: the desk fixture (the platform) passes every item
 * the tool checks in both checklists; a small server written without the platform, broken one defect at a time,
 * fails exactly the item of that defect, with its evidence; bad arguments and no server are exit 2.
 */
describe('npm run compliance against a running server', () => {
  let desk: RunningServer;
  beforeAll(async () => {
    const built = spawnSync(
      process.execPath,
      [resolve(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'libs/compliance/tsconfig.json'],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    if (built.status !== 0) throw new Error(`the compliance tool did not build:\n${built.stdout}${built.stderr}`);
    desk = await startDeskHttp();
  }, 120_000);
  afterAll(() => desk?.stop());

  it('passes the platform on every item it checks, in both checklists, and says which items need a person', async () => {
    const { code, items, stderr } = await compliance(['--url', desk.url, '--token', desk.token!, '--format', 'json']);
    const failed = items.filter((i) => i.status === 'fail');
    expect({ code, failed }).toEqual({ code: 0, failed: [] });
    for (const standard of ['1.2', '2.0']) {
      const mine = byId(items, standard);
      for (const id of [
        'http.health',
        'auth.required',
        'auth.www-authenticate',
        'auth.bearer',
        'doc.version',
        'doc.semver',
      ])
        expect([standard, id, mine[id]]).toEqual([standard, id, 'pass']);
    }
    expect(byId(items, '1.2')).toMatchObject({
      'http.cors': 'pass',
      'http.origin': 'pass',
      'http.post-mcp': 'pass',
      'http.protocol-version': 'pass',
      'life.initialize': 'pass',
      'life.unknown-method': 'pass',
    });
    expect(byId(items, '2.0')).toMatchObject({
      'http.cors-origin': 'pass',
      'spec.discover': 'pass',
      'spec.unknown-method': 'pass',
      'tools.names': 'pass',
      'obs.request-id': 'pass',
      'tools.side-effects': 'manual',
    });
    expect(stderr).toMatch(/^compliance: v1\.2: \d+ pass, 0 fail \(0 MUST\), \d+ manual, \d+ n\/a; v2\.0: /m);
    // Evidence never shows the token.
    expect(JSON.stringify(items)).not.toContain(desk.token!);
  }, 120_000);

  it('writes a Markdown report for the reviewer, its summary last', async () => {
    const { code, stdout } = await compliance(['--url', desk.url, '--token', desk.token!, '--standard', '1.2']);
    expect(code).toBe(0);
    expect(stdout).toContain('## Corporate MCP standard v1.2, §18');
    expect(stdout).toMatch(/\| pass \| MUST \| Authentication \| `auth.www-authenticate`/);
    expect(stdout.trimEnd().split('\n').at(-1)).toMatch(/^compliance: v1\.2: \d+ pass, 0 fail \(0 MUST\)/);
  }, 120_000);

  const defects: [keyof Defects, string][] = [
    ['badVersion', 'doc.semver'],
    ['healthVersionDiffers', 'doc.version'],
    ['noChallenge', 'auth.www-authenticate'],
    ['wrongUnknownMethodCode', 'life.unknown-method'],
    ['camelCaseTool', 'tools.names'],
    ['toolWithoutDescription', 'tools.fields'],
    ['noRequestId', 'obs.request-id'],
    ['stackTrace', 'errors.no-leaks'],
  ];

  it('passes a correct server written without the platform on the same items (v1.2 only: it speaks 2025)', async () => {
    const server = await startBrokenMcpServer();
    try {
      const { code, items } = await compliance(['--url', server.url, '--token', server.token, '--format', 'json']);
      expect(new Set(items.map((i) => i.standard))).toEqual(new Set(['1.2']));
      expect(items.filter((i) => i.status === 'fail')).toEqual([]);
      expect(code).toBe(0);
      for (const [, id] of defects) expect(byId(items, '1.2')[id]).toBe('pass');
    } finally {
      await server.close();
    }
  }, 60_000);

  it('names the v2.0 items a 2025-only server misses when asked for v2.0', async () => {
    const server = await startBrokenMcpServer();
    try {
      const { code, items } = await compliance([
        '--url',
        server.url,
        '--token',
        server.token,
        '--standard',
        '2.0',
        '--format',
        'json',
      ]);
      const failed = items.filter((i) => i.status === 'fail').map((i) => i.id);
      expect(failed).toEqual(expect.arrayContaining(['spec.discover', 'spec.unknown-method', 'doc.version']));
      expect(items.find((i) => i.id === 'spec.discover')!.evidence.join(' ')).toContain('server/discover');
      expect(code).toBe(1);
    } finally {
      await server.close();
    }
  }, 60_000);

  it.each(defects)(
    'fails exactly its item for the defect %s (%s), with evidence, and exits 1',
    async (defect, id) => {
      const server = await startBrokenMcpServer({ [defect]: true });
      try {
        const { code, items } = await compliance(['--url', server.url, '--token', server.token, '--format', 'json']);
        const failed = items.filter((i) => i.status === 'fail');
        expect(failed.map((i) => i.id)).toEqual([id]);
        expect(failed[0].evidence.join(' ')).toMatch(/-> \d{3}/);
        expect(code).toBe(1);
      } finally {
        await server.close();
      }
    },
    60_000,
  );

  describe('the documentation items, from the server’s folder (--dir)', () => {
    const README = '# status service\n\nTools: `get_status` returns the status of the service.\n';
    const CHANGELOG =
      '# Changelog\n\n## [Unreleased]\n\n### Added\n- `get_status`.\n\n## [1.4.2] - 2026-11-01\n\n### Fixed\n- A typo.\n';
    const folder = (files: Record<string, string>) => {
      const dir = mkdtempSync(join(tmpdir(), 'compliance-dir-'));
      for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
      return dir;
    };
    const statusOf = async (files: Record<string, string> | undefined) => {
      const server = await startBrokenMcpServer();
      const dir = files && folder(files);
      try {
        const args = ['--url', server.url, '--token', server.token, '--format', 'json', ...(dir ? ['--dir', dir] : [])];
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
      expect(unnamed.readme.evidence.join(' ')).toContain('does not name the tools get_status');
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
