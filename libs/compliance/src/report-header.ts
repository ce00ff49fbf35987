import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serverInfo } from './checks/catalogue';
import { CheckContext } from './check-context';
import { StandardVersion } from './compliance.types';
import { RunGuard } from './run-guard';

/** What a reviewer reads first: which server, at which version and commit, checked by which template, how bounded. */
export interface ReportHeader {
  /** The endpoint checked (the app form's is an ephemeral loopback port). */
  url: string;
  /** The app under apps/, in the app form. */
  app?: string;
  /** The server's name and version as it states them (`serverInfo`), when it does. */
  server: { name?: string; version?: string };
  /** The server's folder, when known (app form, or `--dir`). */
  dir?: string;
  /** The git commit of the server's folder (app form, or `--dir`), when it is in a git checkout. */
  commit?: string;
  /** The template whose command made the report: its repository's package.json name and version. */
  template: { name: string; version: string };
  checkedAt: string;
  /** The bounds of the run (docs/compliance.md#safety). */
  limits: { maxAnswerBytes: number; deadlineSec: number };
  /** Why the run stopped before it checked everything: the report is then no verdict (exit 2). */
  stopped?: string;
  /** Redirects the server answered, none followed (`<request> -> <target>`). */
  redirects: string[];
}

/** The server's `serverInfo`, from whichever era answered it (asked already: nothing new is sent). */
export async function serverIdentity(
  ctx: CheckContext,
  standards: StandardVersion[],
): Promise<{ name?: string; version?: string }> {
  for (const standard of standards) {
    const { info } = await serverInfo(ctx, standard).catch(() => ({ info: undefined }));
    if (info)
      return {
        ...(typeof info.name === 'string' ? { name: info.name } : {}),
        ...(typeof info.version === 'string' ? { version: info.version } : {}),
      };
  }
  return {};
}

/** The commit checked out at `dir` (`<sha> (uncommitted changes)` when the folder differs), or undefined. */
export function gitCommit(dir: string | undefined): string | undefined {
  if (!dir || !existsSync(dir)) return undefined;
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: dir, encoding: 'utf8', timeout: 5_000, stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const sha = git('rev-parse', 'HEAD').trim();
    const dirty = git('status', '--porcelain', '--', '.').trim() !== '';
    return `${sha}${dirty ? ' (uncommitted changes)' : ''}`;
  } catch {
    // Not a git checkout, or no git: the header leaves the commit out.
    return undefined;
  }
}

/** The template's name and version, from the package.json of the repository the command runs in. */
export function templateVersion(repo: string): { name: string; version: string } {
  try {
    const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
    return { name: String(pkg.name ?? 'unknown'), version: String(pkg.version ?? 'unknown') };
  } catch {
    return { name: 'unknown', version: 'unknown' };
  }
}

/** The header's fixed parts, and what the guard saw during the run. */
export function reportHeader(
  parts: Omit<ReportHeader, 'checkedAt' | 'limits' | 'stopped' | 'redirects'>,
  guard: RunGuard,
): ReportHeader {
  return {
    ...parts,
    checkedAt: new Date().toISOString(),
    limits: { maxAnswerBytes: guard.maxAnswerBytes, deadlineSec: guard.deadlineSec },
    ...(guard.stopped ? { stopped: guard.stopped.message } : {}),
    redirects: guard.refusedRedirects,
  };
}
