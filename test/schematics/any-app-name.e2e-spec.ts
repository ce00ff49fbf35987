import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { appsUnderApps } from '../support/apps';
import { copyRepository, run, runStatus } from '../support/repo-copy';
import { freeAppName } from '../support/free-app-name';

/**
 * A team's apps are not ours: in a temporary copy of the repository, servers named `orders`, `billing` and `acme`
 * (names the library's own code and docs also use as words) are generated, the example is deleted the documented
 * way (`npm run app:remove`), and every check that depends on which apps exist runs green there: lint, format,
 * typecheck, the contract gate for every app, example independence, the per-app deploy checks (compose file,
 * compose as processes behind nginx, Kubernetes overlays), the generate, contract-gate and compliance suites, and the
 * generated apps' own specs.
 */
describe('any app name: orders, billing and acme generated, the example deleted', () => {
  jest.setTimeout(1_800_000);
  let dir: string;
  let names: string[];

  beforeAll(() => {
    dir = copyRepository('mcp-any-name-');
    names = [];
    for (const base of ['orders', 'billing', 'acme']) {
      const name = freeAppName(dir, base);
      run(dir, 'npx', ['nest', 'g', 'mcp-server', name, '--project', name]);
      run(dir, 'npm', ['run', '-s', 'contract', '--', name]);
      names.push(name);
    }
    for (const app of appsUnderApps(dir)) {
      const pkg = JSON.parse(readFileSync(join(dir, app.root, 'package.json'), 'utf8'));
      if (pkg.mcpTemplateExample === true) run(dir, 'npm', ['run', '-s', 'app:remove', '--', app.name]);
    }
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('leaves exactly the generated apps, the first of them the default', () => {
    expect(appsUnderApps(dir).map((a) => a.name)).toEqual(names);
    const cli = JSON.parse(readFileSync(join(dir, 'nest-cli.json'), 'utf8'));
    expect(cli.root).toBe(`apps/${names[0]}`);
    expect(readFileSync(join(dir, 'docker-compose.yml'), 'utf8')).toContain(`\${APP:-${names[0]}}`);
    for (const name of names) expect(existsSync(join(dir, `apps/${name}/deploy/kubernetes`))).toBe(true);
  });

  it('lint, format and typecheck pass over the whole tree', () => {
    run(dir, 'npx', ['eslint', '.']);
    run(dir, 'npx', ['prettier', '--check', '.']);
    run(dir, 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']);
  });

  it('the contract gate passes for every app', () => {
    const output = run(dir, 'npm', ['run', '-s', 'contract:check']);
    for (const name of names) expect(output).toContain(`${name}: contract OK`);
  });

  it('every suite that depends on which apps exist passes, and the generated apps’ own specs', () => {
    // The suites whose subject is the set of apps (none of them starts the library's fixture apps).
    const suites = [
      'test/layout/example-independence',
      'test/deploy/app-',
      'test/schematics/generate-own-server',
      'test/contract',
      'test/compliance/compliance-apps',
      'apps/',
    ];
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
