import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const CLI = resolve(ROOT, 'dist/tools/compliance/compliance/src/compliance.cli.js');

/** One item of the JSON report. */
export interface ReportItem {
  id: string;
  standard: string;
  level: string;
  status: string;
  evidence: string[];
  reviewer?: string;
}

/**
 * Builds `npm run compliance`'s program as its npm script does (once per suite, in beforeAll): scripts/tool.mjs, which
 * runs `nest build` (its compiler turns the `@app/contract` import into a relative path the built program can load)
 * only when something the tool reads changed since its last build.
 */
export function buildComplianceTool(): void {
  const built = spawnSync(process.execPath, [resolve(ROOT, 'scripts/tool.mjs'), '--build-only', 'compliance'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`the compliance tool did not build:\n${built.stdout}${built.stderr}`);
}

/**
 * Runs the program and reads its JSON report (when it printed one). Not spawnSync: the servers it checks may answer
 * from this very process.
 */
export async function compliance(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; items: ReportItem[]; stderr: string; stdout: string }> {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const [code] = (await once(child, 'close')) as [number];
  let items: ReportItem[] = [];
  try {
    items = (JSON.parse(stdout) as { items: ReportItem[] }).items;
  } catch {
    // not JSON (Markdown asked for, or an error): the caller looks at stdout
  }
  return { code, items, stderr, stdout };
}

/**
 * The report fails exactly `expected` (`<standard> <id>`), each with evidence, and exits 1 when one of them is a MUST
 * (0 when only SHOULDs fail).
 */
export function expectFailsExactly(result: { code: number; items: ReportItem[] }, expected: string[]): void {
  expect(failedItems(result.items).sort()).toEqual([...expected].sort());
  const failed = result.items.filter((i) => i.status === 'fail');
  for (const item of failed) expect([item.id, item.evidence.join(' ').trim()]).not.toEqual([item.id, '']);
  expect(result.code).toBe(failed.some((i) => i.level === 'MUST') ? 1 : 0);
}

/** The failed items as `<standard> <id>`. */
export const failedItems = (items: ReportItem[]): string[] =>
  items.filter((i) => i.status === 'fail').map((i) => `${i.standard} ${i.id}`);

/** A temporary folder holding `files` (a server's README.md, CHANGELOG.md, …). */
export function folderWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'compliance-dir-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/**
 * `npm run compliance -- --url … --token … --issuer-key … --dir <dir> --format json [extra]` against a test server,
 * which is closed afterwards: what the tests of servers written without the platform run.
 */
export async function checkServer(
  server: { url: string; token: string; issuerKey: unknown; close(): Promise<void> },
  dir: string,
  extra: string[] = [],
): Promise<{ code: number; items: ReportItem[] }> {
  const keyDir = mkdtempSync(join(tmpdir(), 'compliance-key-'));
  const key = join(keyDir, 'issuer-key.json');
  writeFileSync(key, JSON.stringify(server.issuerKey));
  try {
    const args = ['--url', server.url, '--token', server.token, '--issuer-key', key, '--dir', dir];
    return await compliance([...args, '--format', 'json', ...extra]);
  } finally {
    await server.close();
    rmSync(keyDir, { recursive: true, force: true });
  }
}
