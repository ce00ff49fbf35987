import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyRepository, run } from '../support/repo-copy';

/**
 * The README's "Start your own server" flow, exactly as documented, in a temporary copy of this repository:
 * generate a server and one provider of each kind with `nest g`, delete the example app, then build, lint,
 * typecheck and run the generated specs. Proves a team can replace the example without breaking anything.
 */
const APP = 'acme';

describe('a team starts its own server with nest g (README flow, in a temporary copy)', () => {
  jest.setTimeout(600_000);
  let dir: string;
  const generated: string[] = [];

  beforeAll(() => {
    dir = copyRepository('mcp-own-server-');
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('nest g mcp-server creates the app and registers it in nest-cli.json', () => {
    const out = run(dir, 'npx', ['nest', 'g', 'mcp-server', APP, '--project', APP]);
    expect(out).toContain(`CREATE apps/${APP}/src/main.ts`);
    expect(out).toContain('UPDATE nest-cli.json');
    const cli = JSON.parse(readFileSync(join(dir, 'nest-cli.json'), 'utf8'));
    expect(cli.projects[APP]).toMatchObject({ type: 'application', root: `apps/${APP}` });
    expect(readFileSync(join(dir, `apps/${APP}/src/main.ts`), 'utf8')).toContain('bootstrapMcpServer(AppModule');
  });

  it('the new server gets the deployment files: a Kubernetes overlay that validates, and the compose stack', () => {
    const overlay = `apps/${APP}/deploy/kubernetes`;
    expect(existsSync(join(dir, overlay, 'kustomization.yaml'))).toBe(true);
    const check = run(dir, 'npm', ['run', '-s', 'k8s:check']);
    expect(check).toContain(`ok   ${overlay}: 14 resources`);
    const rendered = JSON.parse(run(dir, 'node', ['scripts/kubernetes-check.mjs', '--json', overlay]))[overlay];
    const deployment = rendered.resources.find(
      (r: { kind: string; metadata: { name: string } }) => r.kind === 'Deployment' && r.metadata.name === 'mcp-server',
    );
    expect(deployment.metadata.namespace).toBe(APP);
    expect(deployment.spec.template.spec.containers[0].image).toBe(`registry.example.com/${APP}:0.1.0`);
    // The compose stack builds whichever app APP names (docker-compose validates it; no engine needed).
    const compose = spawnSync('docker-compose', ['config'], {
      cwd: dir,
      env: { ...process.env, APP },
      encoding: 'utf8',
    });
    expect(compose.status).toBe(0);
    expect(compose.stdout).toMatch(new RegExp(`APP: ${APP}\\n`));
    expect(compose.stdout).toContain(`OTEL_SERVICE_NAME: ${APP}`);
    expect(readFileSync(join(dir, `apps/${APP}/README.md`), 'utf8')).toContain(`APP=${APP} docker-compose up --build`);
  });

  it('--dry-run writes nothing', () => {
    const out = run(dir, 'npx', ['nest', 'g', 'mcp-tool', 'dry-thing', '--project', APP, '--dry-run']);
    expect(out).toContain('dry-thing.tools.ts');
    expect(existsSync(join(dir, `apps/${APP}/src/dry-thing`))).toBe(false);
  });

  it.each([
    ['mcp-tool', 'weather-forecast', []],
    ['mcp-tool', 'refund-order', ['--type', 'high']],
    ['mcp-prompt', 'daily-summary', []],
    ['mcp-resource', 'price-list', []],
    ['mcp-resource', 'invoice', ['--type', 'template']],
  ])('nest g %s %s %j registers the provider in the app module', (schematic, name, extra) => {
    const out = run(dir, 'npx', ['nest', 'g', schematic, name, '--project', APP, ...extra]);
    expect(out).toContain(`UPDATE apps/${APP}/src/app.module.ts`);
    generated.push(name);
    const module = readFileSync(join(dir, `apps/${APP}/src/app.module.ts`), 'utf8');
    expect(module).toContain(`from './${name}/${name}.`);
  });

  it('a mutating tool carries every mutation field the boot check demands, as TODO placeholders', () => {
    const tool = readFileSync(join(dir, `apps/${APP}/src/refund-order/refund-order.tools.ts`), 'utf8');
    expect(tool).toContain("name: 'refund_order'");
    expect(tool).toContain("risk: 'high'");
    for (const field of ['sideEffects', 'idempotency', 'retry', 'approval']) expect(tool).toContain(`${field}:`);
    expect(tool).toMatch(/retry: 'TODO/);
  });

  it('with the example app deleted, the new app builds, lints, typechecks and passes its own specs', () => {
    const cliPath = join(dir, 'nest-cli.json');
    const cli = JSON.parse(readFileSync(cliPath, 'utf8'));
    // Every other app under apps/ (the example) goes: its folder and its nest-cli.json entry.
    for (const [name, project] of Object.entries<{ root: string }>(cli.projects)) {
      if (name === APP || !project.root.startsWith('apps/')) continue;
      rmSync(join(dir, project.root), { recursive: true, force: true });
      delete cli.projects[name];
    }
    Object.assign(cli, {
      root: `apps/${APP}`,
      sourceRoot: `apps/${APP}/src`,
      compilerOptions: { ...cli.compilerOptions, tsConfigPath: `apps/${APP}/tsconfig.app.json` },
    });
    writeFileSync(cliPath, `${JSON.stringify(cli, null, 2)}\n`);

    run(dir, 'npm', ['run', 'build', '--', APP]);
    expect(existsSync(join(dir, `dist/apps/${APP}/apps/${APP}/src/main.js`))).toBe(true);
    expect(existsSync(join(dir, `dist/apps/${APP}/apps/${APP}/agent/brief.md`))).toBe(true);
    run(dir, 'npx', ['eslint', `apps/${APP}`]);
    run(dir, 'npx', ['prettier', '--check', `apps/${APP}`]);
    run(dir, 'npx', ['tsc', '-p', `apps/${APP}/tsconfig.app.json`, '--noEmit']);
    const specs = run(dir, 'npm', ['run', 'jest', '--', '--ci', `apps/${APP}`]);
    expect(specs).toMatch(/Tests:\s+\d+ passed, \d+ total/);
    expect(specs).not.toMatch(/failed/);
    for (const name of generated) expect(specs).toContain(`apps/${APP}/src/${name}/`);
    expect(specs).toContain(`apps/${APP}/test/${APP}.e2e-spec.ts`);
  });
});
