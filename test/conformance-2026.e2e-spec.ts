import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { promisify } from 'node:util';
import { RunningServer } from './support/server-process';
import { CONFORMANCE_NEXT_CLI, startConformanceFixture } from './support/conformance-fixture';

const run = promisify(execFile);
// eslint-disable-next-line no-control-regex -- ANSI colour codes are control characters by definition
const strip = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');
const cli = (args: string[]) =>
  run(process.execPath, [CONFORMANCE_NEXT_CLI, ...args], {
    env: { ...process.env, NODE_OPTIONS: '' },
    timeout: 240_000,
    maxBuffer: 64 * 1024 * 1024,
  })
    .then(({ stdout, stderr }) => ({ code: 0, out: strip(`${stdout}\n${stderr}`) }))
    .catch((e: { code?: number; stdout?: string; stderr?: string }) => ({
      code: e.code ?? 1,
      out: strip(`${e.stdout ?? ''}\n${e.stderr ?? ''}`),
    }));

/** The server scenarios a frozen requirement set names (scored ones, and those run but not scored). */
function requirementSet(revision: string): { scored: string[]; notScored: string[] } {
  const file = resolve(dirname(CONFORMANCE_NEXT_CLI), `../requirements/${revision}.yaml`);
  const text = readFileSync(file, 'utf8');
  const server = /^server:\n((?: {2}- .+\n)+)/m.exec(text)?.[1] ?? '';
  const scored = [...server.matchAll(/^ {2}- (\S+)/gm)].map((m) => m[1]);
  const notScored = [...text.matchAll(/- scenario: (\S+)\n\s+leg: server/g)].map((m) => m[1]);
  return { scored, notScored };
}

const summaryLine = (out: string, scenario: string) =>
  new RegExp(`^([✓✗]) ${scenario.replace(/[/]/g, '\\/')}: (\\d+) passed, (\\d+) failed`, 'm').exec(out);

/** The tasks extension's scenarios (`io.modelcontextprotocol/tasks`, SEP-2663): run but not scored by the suite. */
const TASKS = /^tasks-/;

/**
 * The official conformance suite's pre-release (`@modelcontextprotocol/conformance@0.2.0-alpha.12`, pinned) against
 * the fixture on one endpoint serving both eras: everything 2026-07-28 requires, on its stateless wire; everything
 * 2025-11-25 requires, on the initialize/session wire; and `--suite all` fully green, the tasks and skills extensions
 * included.
 */
describe('official conformance suite 0.2.0-alpha.12: 2026-07-28 and 2025-11-25 on one endpoint', () => {
  let fixture: RunningServer;
  const results: Record<string, { code: number; out: string }> = {};

  beforeAll(async () => {
    // The suites open hundreds of sessions from one address within a minute, all one caller (no authentication); the
    // task scenarios leave tasks waiting for answers nobody gives, each holding one of that caller's run places.
    fixture = await startConformanceFixture({
      MCP_INITIALIZE_PER_MINUTE: '100000',
      MCP_REQUESTS_PER_MINUTE: '100000',
      MCP_MAX_RUNNING_TASKS_PER_SUBJECT: '100',
    });
    // The suite's dns-rebinding scenario needs a localhost URL.
    const url = fixture.url.replace('127.0.0.1', 'localhost');
    results.modern = await cli(['server', '--url', url, '--requirements', '2026-07-28']);
    results.legacy = await cli(['server', '--url', url, '--requirements', '2025-11-25']);
    results.all = await cli(['server', '--url', url, '--suite', 'all']);
  }, 600_000);
  afterAll(() => fixture?.stop());

  it.each(['2026-07-28', '2025-11-25'])('--requirements %s: every required scenario passes, no warning', (rev) => {
    const result = rev === '2026-07-28' ? results.modern : results.legacy;
    const { scored } = requirementSet(rev);
    expect(scored.length).toBeGreaterThanOrEqual(rev === '2026-07-28' ? 37 : 30);
    const failing = scored.filter((s) => {
      const line = summaryLine(result.out, s);
      return !line || line[1] !== '✓' || line[3] !== '0';
    });
    expect({ failing, tail: failing.length ? result.out.slice(-3000) : '' }).toEqual({ failing: [], tail: '' });
    expect(result.code).toBe(0);
    expect(result.out).not.toMatch(/\bWARNING\b/);
  });

  it('--requirements 2026-07-28: what is run but not scored passes too, the tasks extension included', () => {
    const { notScored } = requirementSet('2026-07-28');
    expect(notScored.filter((s) => TASKS.test(s)).length).toBeGreaterThanOrEqual(9);
    const failing = notScored.filter((s) => summaryLine(results.modern.out, s)?.[1] !== '✓');
    expect(failing).toEqual([]);
  });

  it('--suite all: every scenario green, every tasks-* scenario with its checks passing', () => {
    const lines = [...results.all.out.matchAll(/^([✓✗]) (\S+): (\d+) passed, (\d+) failed/gm)];
    expect(lines.length).toBeGreaterThanOrEqual(60);
    const failing = lines.filter((m) => m[1] !== '✓').map((m) => m[2]);
    expect(failing).toEqual([]);
    const tasks = lines.filter((m) => TASKS.test(m[2]));
    expect(tasks.length).toBeGreaterThanOrEqual(9);
    // tasks-status-notifications is skipped by the suite itself (0 checks); every other one runs checks.
    expect(tasks.filter((m) => m[3] === '0' && m[2] !== 'tasks-status-notifications').map((m) => m[2])).toEqual([]);
    expect(results.all.out).not.toMatch(/\bWARNING\b/);
    // Skills (SEP-2640): the fixture serves a folder skill and two computed ones (@McpSkill), so each scenario runs
    // its list, get, manifest, limits, naming, digest and directory checks for real, and every one passes.
    for (const skill of ['sep-2640-skills-directory', 'sep-2640-skills-enumeration', 'sep-2640-skills-manifest']) {
      const line = summaryLine(results.all.out, skill);
      expect({ skill, passed: line?.[1], failed: line?.[3] }).toEqual({ skill, passed: '✓', failed: '0' });
      expect(Number(line![2])).toBeGreaterThan(1);
    }
  });
});
