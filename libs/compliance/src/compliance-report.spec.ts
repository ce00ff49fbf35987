import { resolve } from 'node:path';
import { jsonReport, markdownReport, summarize } from './compliance-report';
import { ItemResult } from './compliance.types';
import { counted } from './counted';
import { ReportHeader, gitCommit, templateVersion } from './report-header';

const REPO = resolve(__dirname, '../../..');

const header = (over: Partial<ReportHeader> = {}): ReportHeader => ({
  url: 'http://127.0.0.1:40123/mcp',
  app: 'inventory',
  dir: '/srv/checked-server',
  server: { name: 'inventory', version: '1.4.2' },
  commit: '0123456789abcdef0123456789abcdef01234567',
  template: { name: 'nest-mcp-enterprise-template', version: '0.1.0' },
  checkedAt: '2026-11-28T00:00:00.000Z',
  limits: { maxAnswerBytes: 4 * 1_048_576, deadlineSec: 300 },
  redirects: [],
  ...over,
});

const item = (over: Partial<ItemResult> = {}): ItemResult => ({
  id: 'life.prompts',
  standard: '1.2',
  section: 'Lifecycle',
  level: 'MUST',
  requires: 'prompts work',
  status: 'pass',
  evidence: ['POST /mcp prompts/get -> 200'],
  ...over,
});

describe('the compliance report, as a reviewer reads it', () => {
  it('names the server, its version, the commit and the template in its header, not only a URL', () => {
    const md = markdownReport(header(), [item()]);
    expect(md).toContain('- Server: inventory 1.4.2 (app `inventory`)');
    expect(md).toContain('- Endpoint: http://127.0.0.1:40123/mcp');
    expect(md).toContain('- Commit: 0123456789abcdef0123456789abcdef01234567');
    expect(md).toContain('- Checked with: nest-mcp-enterprise-template 0.1.0 (npm run compliance)');
    expect(md).toContain("- Bounds: every answer read up to 4 MiB; the run's deadline 300 s");
    const json = JSON.parse(jsonReport(header(), [item()])) as { header: ReportHeader; server: string };
    expect(json.header).toMatchObject({
      server: { name: 'inventory', version: '1.4.2' },
      template: { version: '0.1.0' },
    });
    expect(json.server).toBe('inventory (http://127.0.0.1:40123/mcp)');
    const bare = markdownReport(header({ app: undefined, dir: undefined, commit: undefined, server: {} }), []);
    expect(bare).toContain('- Server: (states no name) (states no version)');
    expect(bare).toContain('- Commit: unknown (give --dir)');
  });

  it('reads the commit of a git checkout and the template version of the repository', () => {
    expect(gitCommit(REPO)).toMatch(/^[0-9a-f]{40}( \(uncommitted changes\))?$/);
    expect(gitCommit('/')).toBeUndefined();
    expect(gitCommit(undefined)).toBeUndefined();
    expect(templateVersion(REPO)).toEqual({
      name: expect.any(String),
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
  });

  it('says when a pass rests on a negative probe only', () => {
    const negative = item({ negativeOnly: 'a listed prompt got (every one needs arguments)' });
    const md = markdownReport(header(), [negative]);
    expect(md).toMatch(/\| pass \(negative probe\) \| MUST \|/);
    expect(md).toContain('**Negative probe only:** a listed prompt got (every one needs arguments)');
    expect(JSON.parse(jsonReport(header(), [negative])).items[0].negativeOnly).toBe(negative.negativeOnly);
  });

  it('says that the run stopped, first, and what was not followed', () => {
    const stopped = 'the run’s deadline of 2 s passed';
    const md = markdownReport(
      header({ stopped, redirects: ['POST /mcp tools/list -> http://x:1/mcp (another origin)'] }),
      [item({ status: 'manual', evidence: ['not checked: the run had stopped'] })],
    );
    expect(md).toContain(`**The run stopped: ${stopped}.**`);
    expect(md).toContain('**Redirects not followed** (the command follows none, so no other server is graded): POST');
    expect(summarize([item()], stopped).line).toBe(
      `compliance: the run stopped: ${stopped}; v1.2: 1 pass, 0 fail (0 MUST), 0 manual, 0 n/a`,
    );
    expect(summarize([], stopped).line).toBe(`compliance: the run stopped: ${stopped}`);
  });

  it('counts in words that agree with the number', () => {
    expect([counted(0, 'tool'), counted(1, 'tool'), counted(2, 'tool'), counted(1, 'entry', 'entries')]).toEqual([
      '0 tools',
      '1 tool',
      '2 tools',
      '1 entry',
    ]);
  });
});
