import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { RunningServer } from './support/server-process';
import { CONFORMANCE_CLI, startConformanceFixture } from './support/conformance-fixture';

const run = promisify(execFile);
const cli = (args: string[]) =>
  run(process.execPath, [CONFORMANCE_CLI, ...args], {
    env: { ...process.env, NODE_OPTIONS: '' },
    timeout: 120_000,
    maxBuffer: 32 * 1024 * 1024,
  })
    .then(({ stdout, stderr }) => ({ code: 0, out: `${stdout}\n${stderr}` }))
    .catch((e: { code?: number; stdout?: string; stderr?: string }) => ({
      code: e.code ?? 1,
      out: `${e.stdout ?? ''}\n${e.stderr ?? ''}`,
    }));
// eslint-disable-next-line no-control-regex -- ANSI colour codes are control characters by definition
const strip = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`) against the fixture app
 * built with our decorators: every active and pending server scenario, no FAILURE and no WARNING.
 */
describe('official MCP conformance suite, --suite all', () => {
  let fixture: RunningServer;
  let scenarios: string[];
  let result: { code: number; out: string };

  beforeAll(async () => {
    fixture = await startConformanceFixture();
    const list = await cli(['list', '--server']);
    scenarios = [...strip(list.out).matchAll(/^\s+- ([a-z0-9-]+)/gm)].map((m) => m[1]);
    // The suite's dns-rebinding scenario needs a localhost URL.
    result = await cli(['server', '--url', fixture.url.replace('127.0.0.1', 'localhost'), '--suite', 'all']);
    result.out = strip(result.out);
  }, 180_000);
  afterAll(() => fixture?.stop());

  it('lists the server scenarios, including the pending ones', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(32);
    expect(scenarios).toEqual(
      expect.arrayContaining(['json-schema-2020-12', 'server-sse-polling', 'dns-rebinding-protection']),
    );
  });

  it('passes every scenario: exit 0, every summary line green, no FAILURE and no WARNING', () => {
    expect({ code: result.code, tail: result.code === 0 ? '' : result.out.slice(-4000) }).toEqual({
      code: 0,
      tail: '',
    });
    const summary = result.out.slice(result.out.indexOf('=== SUMMARY ==='));
    for (const scenario of scenarios) expect(summary).toMatch(new RegExp(`✓ ${scenario}: \\d+ passed, 0 failed`));
    expect(summary).toMatch(/Total: \d+ passed, 0 failed/);
    expect(result.out).not.toMatch(/\bFAILURE\b/);
    expect(result.out).not.toMatch(/\bWARNING\b/);
  });
});
