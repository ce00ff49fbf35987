import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Check, CheckContext, fail, manual, pass, passInPart } from '../check-context';
import { CONTRACT_FILE, snapshotDrift } from './contract-snapshot';
import { StandardVersion } from '../compliance.types';
import { listTools } from './tools.checks';
import { counted } from '../counted';

/** The kinds of change Keep a Changelog names; any other `###` heading breaks the shape. */
const CHANGE_KINDS = new Set(['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security']);
const RELEASE = /^## \[(Unreleased|\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\]/;

const noDir = () =>
  manual('pass --dir <the server’s folder> (its README.md, CHANGELOG.md, mcp-contract.json) to check this item');

/** A file of the server's folder, or undefined. */
export function readDirFile(dir: string, name: string): string | undefined {
  const path = join(dir, name);
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}
const read = (ctx: CheckContext, name: string) => readDirFile(ctx.dir!, name);

/** The documentation items, read from the server's folder (`--dir`). */
export const STATIC_CHECKS: Record<string, Check> = {
  'doc.readme': async (ctx, standard: StandardVersion) => {
    if (!ctx.dir) return noDir();
    const readme = read(ctx, 'README.md');
    if (!readme?.trim()) return fail(`${join(ctx.dir, 'README.md')}: missing or empty`);
    // As far as a machine can judge "describes the public contract": every listed tool is named in it, and the
    // contract snapshot, when the folder has one, is the one the server serves.
    const { tools } = await listTools(ctx, standard);
    const names = (tools ?? []).map((t) => String(t.name));
    const missing = names.filter((n) => !readme.includes(n));
    const what = `README.md (${counted(readme.split('\n').length, 'line')})`;
    const drift = snapshotDrift(ctx.dir, tools ?? []);
    const problems = [
      ...(missing.length
        ? [`${what} does not name the ${missing.length === 1 ? 'tool' : 'tools'} ${missing.join(', ')}`]
        : []),
      ...(drift ?? []).slice(0, 8),
      ...(drift?.length ? [`run \`npm run contract -- <app>\` and commit ${CONTRACT_FILE}`] : []),
    ];
    if (problems.length) return fail(...problems);
    return passInPart(
      'that the README describes each tool well enough for a client team',
      names.length === 1 ? `${what} names the one listed tool` : `${what} names all ${names.length} listed tools`,
      drift ? `${CONTRACT_FILE} matches what the server lists` : `no ${CONTRACT_FILE} in the folder (not compared)`,
    );
  },
  'doc.changelog': async (ctx) => {
    if (!ctx.dir) return noDir();
    const changelog = read(ctx, 'CHANGELOG.md');
    if (!changelog) return fail(`${join(ctx.dir, 'CHANGELOG.md')}: missing`);
    const lines = changelog.split('\n');
    const releases = lines.filter((l) => RELEASE.test(l));
    const odd = lines.filter((l) => l.startsWith('### ') && !CHANGE_KINDS.has(l.slice(4).trim()));
    const problems = [
      ...(releases.length ? [] : ['no `## [Unreleased]` or `## [x.y.z]` section']),
      ...odd.map((l) => `"${l}" is not a Keep a Changelog kind (${[...CHANGE_KINDS].join(', ')})`),
    ];
    return problems.length
      ? fail(`CHANGELOG.md: ${problems.slice(0, 5).join('; ')}`)
      : pass(
          `CHANGELOG.md: ${counted(releases.length, 'section')} (${releases.slice(0, 3).join(', ')}…), change kinds as Keep a Changelog names them`,
        );
  },
};
