import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { appsUnderApps } from '../support/apps';
import { copyRepository, run, runStatus } from '../support/repo-copy';
import { freeAppName } from '../support/free-app-name';

/**
 * A team's apps are not ours: in a temporary copy of the repository, servers named `orders`, `billing` and `acme`
 * (names the library's own code and docs also use as words; `orders-2` and so on where the team already has one)
 * are generated beside whatever apps the repository holds, the example is deleted the documented way (`npm run
 * app:remove`), and every check that depends on which apps exist runs green there: lint and format of every file
 * the generation and removal wrote or changed (the others are the test command's own lint and format, unchanged
 * here), typecheck of the whole tree, the contract gate for every generated app, example independence, the per-app
 * deploy checks (compose file, compose as processes behind nginx, Kubernetes overlays), compliance of every app,
 * and the apps' own specs. The suites that generate an app of their own in a copy of their own (generate-own-server,
 * contract-gate) are not run again in this copy: what they prove does not depend on the apps around, and the
 * generation, contract and compliance of the new names are checked here directly. A team's repository runs this
 * too, its own apps included: nothing here assumes the example is the only app.
 */
describe('any app name: orders, billing and acme generated beside the apps there, the example deleted', () => {
  jest.setTimeout(1_800_000);
  let dir: string;
  let names: string[];
  /** The apps the copy held before: the team's (kept) and the example (removed). */
  let team: string[];
  let examples: string[];
  let defaultBefore: string;

  beforeAll(() => {
    dir = copyRepository('mcp-any-name-');
    const isExample = (root: string) =>
      JSON.parse(readFileSync(join(dir, root, 'package.json'), 'utf8')).mcpTemplateExample === true;
    const before = appsUnderApps(dir);
    examples = before.filter((a) => isExample(a.root)).map((a) => a.name);
    team = before.filter((a) => !isExample(a.root)).map((a) => a.name);
    defaultBefore = JSON.parse(readFileSync(join(dir, 'nest-cli.json'), 'utf8')).root;
    names = [];
    for (const base of ['orders', 'billing', 'acme']) {
      const name = freeAppName(dir, base);
      run(dir, 'npx', ['nest', 'g', 'mcp-server', name, '--project', name]);
      run(dir, 'npm', ['run', '-s', 'contract', '--', name]);
      names.push(name);
    }
    for (const example of examples) run(dir, 'npm', ['run', '-s', 'app:remove', '--', example]);
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('leaves the apps that were there (the example removed) and the generated ones; the default moves only off the example', () => {
    for (const name of names) expect(team).not.toContain(name); // a team's `orders` is left alone: `orders-2`
    const apps = appsUnderApps(dir).map((a) => a.name);
    expect(apps).toEqual([...team, ...names]);
    // The default app stays the team's unless it was the example: then the first app left takes its place.
    const expected = examples.some((e) => defaultBefore === `apps/${e}`) ? `apps/${apps[0]}` : defaultBefore;
    const cli = JSON.parse(readFileSync(join(dir, 'nest-cli.json'), 'utf8'));
    expect(cli.root).toBe(expected);
    expect(readFileSync(join(dir, 'docker-compose.yml'), 'utf8')).toContain(
      `\${APP:-${expected.replace(/^apps\//, '')}}`,
    );
    for (const name of names) expect(existsSync(join(dir, `apps/${name}/deploy/kubernetes`))).toBe(true);
  });

  it('lint and format pass on every file written or changed, typecheck over the whole tree', () => {
    // The copy's index holds the tree as copied: what git lists as new or modified is what nest g, the contract and
    // app:remove wrote (deleted files are listed as modified too: only those still there are checked).
    const changed = run(dir, 'git', ['ls-files', '--others', '--modified', '--exclude-standard'])
      .split('\n')
      .filter((f) => f && existsSync(join(dir, f)));
    for (const name of names) expect(changed).toContain(`apps/${name}/src/main.ts`);
    expect(changed).toContain('nest-cli.json');
    run(dir, 'npx', ['eslint', '--no-warn-ignored', ...changed.filter((f) => /\.(ts|js|mjs|cjs)$/.test(f))]);
    run(dir, 'npx', ['prettier', '--check', '--ignore-unknown', ...changed]);
    run(dir, 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']);
  });

  it('the contract gate passes for every generated app', () => {
    // The generated ones: a team's own apps are its own gate's business (its contract may not be recorded yet).
    for (const name of names)
      expect(run(dir, 'npm', ['run', '-s', 'contract:check', '--', name])).toContain(`${name}: contract OK`);
  });

  it('every suite that depends on which apps exist passes, and the generated apps’ own specs', () => {
    // The suites whose subject is the set of apps (none of them starts the library's fixture apps).
    const suites = ['test/layout/example-independence', 'test/deploy/app-', 'test/compliance/compliance-apps', 'apps/'];
    const { status, output } = runStatus(
      dir,
      'npx',
      ['jest', '--ci', '--verbose', ...suites],
      {
        TEST_COUNT_FILE: '',
      },
      1_500_000,
    );
    expect(output).toMatch(/Tests:\s+\d+ passed, \d+ total/);
    expect({ status, failed: output.match(/^.*(✕|FAIL).*$/gm) ?? [] }).toEqual({ status: 0, failed: [] });
    for (const name of names) {
      expect(output).toContain(`docker-compose.yml deploying ${name}`);
      expect(output).toContain(`apps/${name}/test/${name}.e2e-spec.ts`);
    }
  });
});
