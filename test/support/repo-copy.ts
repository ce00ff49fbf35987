import { execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serverEnv } from './stdio-clients';

const ROOT = resolve(__dirname, '../..');
/** Where scripts/tool.mjs builds the contract gate, the compliance check and the generators. */
const TOOL_OUTPUTS = ['dist/tools/contract', 'dist/tools/compliance', 'libs/schematics/dist'];

/**
 * A temporary copy of this repository as a fresh clone has it (git's tracked files plus untracked, non-ignored
 * ones), sharing the installed packages by links, with the git-ignored compiled tools (contract gate, compliance,
 * generators) built in it or carried over from the checkout when their inputs are the same.
 */
export function copyRepository(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  // Modification times kept: the build stamps (scripts/lib/build-stamp.mjs) fingerprint them.
  for (const file of listed.split('\n').filter(Boolean)) {
    if (!existsSync(join(ROOT, file))) continue; // deleted in the work tree, not yet committed
    cpSync(join(ROOT, file), join(dir, file), { recursive: true, preserveTimestamps: true });
  }
  // The repository's tools as the checkout built them, with their stamps: scripts/tool.mjs builds one again in the
  // copy only when its inputs differ there (a copy's own edits), as it would in the checkout.
  for (const built of TOOL_OUTPUTS) {
    if (existsSync(join(ROOT, built, '.mcp-build-stamp')))
      cpSync(join(ROOT, built), join(dir, built), { recursive: true, preserveTimestamps: true });
  }
  linkPackages(dir);
  // A clone is a git repository: checks that list the tracked files (example independence) work in the copy too.
  writeFileSync(join(dir, '.git-exclude'), 'node_modules\n');
  run(dir, 'git', ['init', '-q']);
  renameSync(join(dir, '.git-exclude'), join(dir, '.git/info/exclude'));
  run(dir, 'git', ['add', '-A']);
  run(dir, process.execPath, ['scripts/tool.mjs', '--build-only', 'generate']);
  return dir;
}

/**
 * node_modules of the copy: a link to each installed package, except the repository's own (`@app/*`, linked by npm
 * to its folders), which point into the copy as `npm ci` makes them in a clone. `nest g` then runs the copy's
 * generators, not those of the checkout (or, from a git worktree whose node_modules is a link, of the main one).
 */
function linkPackages(dir: string): void {
  const installed = join(ROOT, 'node_modules');
  mkdirSync(join(dir, 'node_modules/@app'), { recursive: true });
  for (const entry of readdirSync(installed)) {
    if (entry !== '@app') symlinkSync(join(installed, entry), join(dir, 'node_modules', entry));
  }
  for (const entry of readdirSync(join(installed, '@app'), { withFileTypes: true })) {
    // The link's target as npm wrote it (`../../libs/schematics`), resolved inside the copy.
    symlinkSync(readlinkSync(join(installed, '@app', entry.name)), join(dir, 'node_modules/@app', entry.name));
  }
}

/** Runs a command in `cwd` on the project's Node; throws with its output unless it exits 0. */
export function run(cwd: string, command: string, args: string[]): string {
  const result = runStatus(cwd, command, args);
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} exited with ${result.status}:\n${result.output}`);
  return result.output;
}

/**
 * Runs a command in `cwd` and returns its exit status and output (stdout then stderr). `env` adds to the
 * environment (a nested jest gets `NODE_OPTIONS` for NestJS's ESM from here); `timeoutMs` defaults to 4 minutes.
 */
export function runStatus(
  cwd: string,
  command: string,
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 240_000,
): { status: number | null; output: string } {
  const nestedJest = command === 'npx' && args[0] === 'jest';
  const result = spawnSync(command, args, {
    cwd,
    env: serverEnv({
      FORCE_COLOR: '0',
      CI: 'true',
      // A jest run inside the copy reports to no file of the outer run's (counts, timings, CPU).
      TEST_COUNT_FILE: '',
      TEST_TIMING_FILE: '',
      TEST_CPU_FILE: '',
      ...(nestedJest ? { NODE_OPTIONS: '--experimental-vm-modules' } : {}),
      ...env,
    }),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: timeoutMs,
  });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}
