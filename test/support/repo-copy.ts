import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { serverEnv } from './stdio-clients';

const ROOT = resolve(__dirname, '../..');

/**
 * A temporary copy of this repository as a fresh clone has it (git's tracked files plus untracked, non-ignored
 * ones), sharing node_modules by a link, with the git-ignored compiled schematics built in it.
 */
export function copyRepository(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  for (const file of listed.split('\n').filter(Boolean)) {
    if (!existsSync(join(ROOT, file))) continue; // deleted in the work tree, not yet committed
    cpSync(join(ROOT, file), join(dir, file), { recursive: true });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  // A clone is a git repository: checks that list the tracked files (example independence) work in the copy too.
  writeFileSync(join(dir, '.git-exclude'), 'node_modules\n');
  run(dir, 'git', ['init', '-q']);
  renameSync(join(dir, '.git-exclude'), join(dir, '.git/info/exclude'));
  run(dir, 'git', ['add', '-A']);
  run(dir, 'npx', ['tsc', '-p', 'libs/schematics/tsconfig.json']);
  return dir;
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
      ...(nestedJest ? { NODE_OPTIONS: '--experimental-vm-modules' } : {}),
      ...env,
    }),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: timeoutMs,
  });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}
