import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The library and its tests stand on their own: no library suite, support file, script or library source
 * imports, builds, starts or names an app under apps/ (the example included). Only nest-cli.json (the project
 * registry), docker-compose.yml (the example's deployment), the docs and each app's own folder may name one.
 * So deleting or renaming the example leaves every library test green.
 */
const ROOT = resolve(__dirname, '../..');
const cli = JSON.parse(readFileSync(resolve(ROOT, 'nest-cli.json'), 'utf8')) as {
  projects: Record<string, { type: string; root: string }>;
};
const apps = Object.entries(cli.projects)
  .filter(([, p]) => p.type === 'application' && p.root.startsWith('apps/'))
  .map(([name]) => name);
const ALLOWED = [/^apps\//, /^nest-cli\.json$/, /^docker-compose\.yml$/, /\.md$/, /^package-lock\.json$/];

function trackedFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return out.split('\n').filter((f) => f && !ALLOWED.some((re) => re.test(f)));
}

describe('the library is independent of the apps under apps/', () => {
  it('finds the apps to look for', () => {
    expect(apps.length).toBeGreaterThan(0);
  });

  it('no library source, test, fixture, script or build file names an app under apps/', () => {
    const offenders: string[] = [];
    for (const file of trackedFiles()) {
      let text: string;
      try {
        text = readFileSync(resolve(ROOT, file), 'utf8');
      } catch {
        continue; // listed by git but deleted in the work tree
      }
      for (const app of apps) {
        const pattern = new RegExp(`(^|[^a-z0-9-])${app}([^a-z0-9-]|$)`, 'i');
        const line = text.split('\n').findIndex((l) => pattern.test(l));
        if (line >= 0) offenders.push(`${file}:${line + 1} names "${app}"`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('the test command builds only the fixture apps under test/fixtures', () => {
    const script = readFileSync(resolve(ROOT, 'scripts/test.sh'), 'utf8');
    const built = [...script.matchAll(/nest build ([\w-]+)/g)].map((m) => m[1]);
    expect(built.length).toBeGreaterThan(0);
    for (const name of built) expect(cli.projects[name].root).toMatch(/^test\/fixtures\//);
  });
});
