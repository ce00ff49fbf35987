import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { appsUnderApps } from '../support/apps';

/**
 * The library and its tests stand on their own, whatever apps a team has:
 * - no library source, test, fixture, script or build file reaches into an app's folder (`apps/<app>/…` or its
 *   build output), for every app under apps/, whatever its name;
 * - no such file names the example app (the app whose package.json says `"mcpTemplateExample": true`), so
 *   deleting it (`npm run app:remove -- <example>`) leaves every library test green.
 * A team's own app may share its name with a word the library uses (`orders`, `billing`): only paths count for it.
 * nest-cli.json (the project registry), docker-compose.yml (its default app), the docs and each app's own folder
 * may name an app.
 */
const ROOT = resolve(__dirname, '../..');
const apps = appsUnderApps(ROOT);
const examples = apps
  .filter((a) => existsSync(join(ROOT, a.root, 'package.json')))
  .filter((a) => JSON.parse(readFileSync(join(ROOT, a.root, 'package.json'), 'utf8')).mcpTemplateExample === true)
  .map((a) => a.name);
const ALLOWED = [/^apps\//, /^nest-cli\.json$/, /^docker-compose\.yml$/, /\.md$/, /^package-lock\.json$/];

function libraryFiles(): { file: string; lines: string[] }[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return out
    .split('\n')
    .filter((f) => f && !ALLOWED.some((re) => re.test(f)) && existsSync(resolve(ROOT, f)))
    .map((file) => ({ file, lines: readFileSync(resolve(ROOT, file), 'utf8').split('\n') }));
}

const offenders = (pattern: (app: string) => RegExp, names: string[]) => {
  const found: string[] = [];
  for (const { file, lines } of libraryFiles()) {
    for (const app of names) {
      const line = lines.findIndex((l) => pattern(app).test(l));
      if (line >= 0) found.push(`${file}:${line + 1} names "${app}"`);
    }
  }
  return found;
};

describe('the library is independent of the apps under apps/', () => {
  it('no library file reaches into any app’s folder or build output', () => {
    const names = apps.map((a) => a.name);
    expect(offenders((app) => new RegExp(`(^|[^a-z0-9-])apps/${app}([^a-z0-9-]|$)`, 'i'), names)).toEqual([]);
  });

  it('no library source, test, fixture, script or build file names the example app', () => {
    expect(offenders((app) => new RegExp(`(^|[^a-z0-9-])${app}([^a-z0-9-]|$)`, 'i'), examples)).toEqual([]);
  });

  it('the test command builds only the fixture apps under test/fixtures', () => {
    const script = readFileSync(resolve(ROOT, 'scripts/test.sh'), 'utf8');
    const cli = JSON.parse(readFileSync(resolve(ROOT, 'nest-cli.json'), 'utf8'));
    const built = [...script.matchAll(/(?:nest build|start\.mjs --build-only) ([\w -]+)/g)].flatMap((m) =>
      m[1].trim().split(/\s+/),
    );
    expect(built.length).toBeGreaterThan(0);
    for (const name of built) expect(cli.projects[name].root).toMatch(/^test\/fixtures\//);
  });
});
