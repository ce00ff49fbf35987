import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The official conformance suite as the repository pins it (the pre-release that has the 2026-07-28 scenarios). */
export const SUITE_PACKAGE = 'node_modules/@modelcontextprotocol/conformance-next';

/**
 * The suite's server scenarios that test any server, not the suite's own fixture tools (`test_simple_text`, …),
 * each run when the server declares the capability it needs.
 */
export const GENERIC_SCENARIOS: { scenario: string; needs?: 'tools' | 'prompts' | 'resources' }[] = [
  { scenario: 'tools-list', needs: 'tools' },
  { scenario: 'prompts-list', needs: 'prompts' },
  { scenario: 'resources-list', needs: 'resources' },
  { scenario: 'sep-2164-resource-not-found', needs: 'resources' },
  { scenario: 'caching' },
  { scenario: 'http-header-validation' },
  { scenario: 'dns-rebinding-protection' },
];

/** One scenario's verdict, as the suite printed it. */
export interface ScenarioResult {
  scenario: string;
  passed: number;
  total: number;
  failed: number;
  /** The suite's lines for the checks that failed (or why the scenario did not run). */
  failures: string[];
}

/** The suite's CLI and version in the repository at `repo`, or undefined when it is not installed. */
export function suiteIn(repo: string): { cli: string; version: string } | undefined {
  const manifest = join(repo, SUITE_PACKAGE, 'package.json');
  if (!existsSync(manifest)) return undefined;
  const version = (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  return { cli: join(dirname(manifest), 'dist/index.js'), version };
}

// eslint-disable-next-line no-control-regex -- ANSI colour codes are control characters by definition
const plain = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

/** The launcher that hands the suite its URL through the environment (beside this file, once built). */
const LAUNCHER = join(__dirname, 'suite-launcher.js');

/**
 * Runs one scenario against `url` (on this Node, which the suite needs at 22 or later) and reads its verdict. The URL
 * (which holds the proxy's secret) goes through the environment, never the command line; `signal` (the run's
 * deadline) ends the scenario's process.
 */
export function runScenario(
  cli: string,
  url: string,
  scenario: string,
  signal?: AbortSignal,
  timeoutMs = 120_000,
): Promise<ScenarioResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [LAUNCHER, '--scenario', scenario],
      {
        env: { ...process.env, NODE_OPTIONS: '', COMPLIANCE_SUITE_CLI: cli, COMPLIANCE_SUITE_URL: url },
        timeout: timeoutMs,
        maxBuffer: 32 * 1_048_576,
        ...(signal ? { signal } : {}),
      },
      (_error, stdout, stderr) => {
        const out = plain(`${stdout}\n${stderr}`);
        const m = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(out);
        const failures = out
          .split('\n')
          .filter((l) => /\bFAILURE\b/.test(l))
          .map((l) => l.replace(/^\S+Z\s+/, '').trim());
        if (!m)
          resolve({ scenario, passed: 0, total: 0, failed: 1, failures: [`no verdict: ${out.trim().slice(-300)}`] });
        else resolve({ scenario, passed: +m[1], total: +m[2], failed: +m[3], failures });
      },
    );
  });
}

/**
 * Runs the scenarios `concurrency` at a time (each is its own process, mostly waiting on the server), their verdicts
 * in the order given; none is started once `signal` is aborted.
 */
export async function runScenarios(
  cli: string,
  url: string,
  scenarios: string[],
  signal?: AbortSignal,
  concurrency = 3,
): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = new Array(scenarios.length);
  let next = 0;
  const worker = async () => {
    while (next < scenarios.length && !signal?.aborted) {
      const i = next++;
      results[i] = await runScenario(cli, url, scenarios[i], signal);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, scenarios.length) }, worker));
  return results.filter((r) => r !== undefined);
}
