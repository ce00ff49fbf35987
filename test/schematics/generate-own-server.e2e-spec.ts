import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { withoutSecrets } from '../support/deploy-secrets';
import { freeAppName } from '../support/free-app-name';
import { copyRepository, run, runStatus } from '../support/repo-copy';
import { startHttpServer } from '../support/server-process';
import { serverEnv } from '../support/stdio-clients';

/** The skill the flow generates with `npm run g -- mcp-skill`. */
const SKILL = 'order-triage';
const SKILL_URI = `skill://${SKILL}/SKILL.md`;

/**
 * The README's "Start your own server" flow in a temporary copy of this repository: generate a server, one
 * provider of each kind and an MCP Apps view with `nest g` and a skill with `npm run g -- mcp-skill`, see the
 * contract gate and a production boot refuse the `TODO:` sentences, write them, record the contract, remove the
 * example with `npm run app:remove`, then build, lint, typecheck, run the generated specs, read the skill and the
 * view over MCP. Proves a team can replace the example without breaking anything.
 * The new app's name is one no app in the copy has yet (`acme`, else `acme-2`, ...): a team's own `acme` stays.
 */
describe('a team starts its own server with nest g (README flow, in a temporary copy)', () => {
  jest.setTimeout(600_000);
  let dir: string;
  let APP: string;
  const generated: string[] = [];

  beforeAll(() => {
    dir = copyRepository('mcp-own-server-');
    APP = freeAppName(dir, 'acme');
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
    // The base's 12 and the overlay's namespace; the Secret mcp-server is created outside (docs/deploying.md).
    expect(check).toContain(`ok   ${overlay}: 13 resources`);
    const rendered = JSON.parse(run(dir, 'node', ['scripts/kubernetes-check.mjs', '--json', overlay]))[overlay];
    const deployment = rendered.resources.find(
      (r: { kind: string; metadata: { name: string } }) => r.kind === 'Deployment' && r.metadata.name === 'mcp-server',
    );
    expect(deployment.metadata.namespace).toBe(APP);
    expect(deployment.spec.template.spec.containers[0].image).toBe(`registry.example.com/${APP}:0.1.0`);
    // The compose stack builds whichever app APP names (docker-compose validates it; no engine needed), with the
    // secrets the README flow generates first (.env in the copy).
    run(dir, 'npm', ['run', '-s', 'env:generate']);
    const compose = spawnSync('docker-compose', ['config'], {
      cwd: dir,
      env: withoutSecrets({ APP }),
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
    ['mcp-tool', 'nightly-export', ['--type', 'task']],
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

  it('npm run g -- mcp-skill writes the SKILL.md and makes the app serve its skills/ folder', () => {
    const out = run(dir, 'npm', ['run', '-s', 'g', '--', 'mcp-skill', SKILL, '--project', APP]);
    expect(out).toContain(`CREATE apps/${APP}/skills/${SKILL}/SKILL.md`);
    expect(out).toContain(`UPDATE apps/${APP}/src/app.module.ts`);
    expect(readFileSync(join(dir, `apps/${APP}/src/app.module.ts`), 'utf8')).toContain(
      'skills: { root: `${__dirname}/../skills` }',
    );
    expect(readFileSync(join(dir, `apps/${APP}/skills/${SKILL}/SKILL.md`), 'utf8')).toContain(`name: ${SKILL}\n`);
  });

  it('npm run g -- mcp-app writes a view and its provider, and wires the app to serve its built views', () => {
    const out = run(dir, 'npm', ['run', '-s', 'g', '--', 'mcp-app', 'sales-board', '--project', APP]);
    expect(out).toContain(`CREATE apps/${APP}/views/sales-board/index.html`);
    expect(out).toContain(`CREATE apps/${APP}/views/sales-board/main.ts`);
    generated.push('sales-board');
    const module = readFileSync(join(dir, `apps/${APP}/src/app.module.ts`), 'utf8');
    expect(module).toContain("from './sales-board/sales-board.app'");
    expect(module).toContain('views: { root: `${__dirname}/../views` }');
  });

  it('a mutating tool carries every mutation field the boot check demands, as TODO placeholders', () => {
    const tool = readFileSync(join(dir, `apps/${APP}/src/refund-order/refund-order.tools.ts`), 'utf8');
    expect(tool).toContain("name: 'refund_order'");
    expect(tool).toContain("risk: 'high'");
    for (const field of ['sideEffects', 'idempotency', 'retry', 'approval']) expect(tool).toContain(`${field}:`);
    expect(tool).toMatch(/retry: 'TODO/);
  });

  it('a task tool runs as a task, and its spec drives the task to its end in both eras', () => {
    const tool = readFileSync(join(dir, `apps/${APP}/src/nightly-export/nightly-export.tools.ts`), 'utf8');
    expect(tool).toContain("task: 'optional'");
    expect(tool).toContain('ctx.reportProgress(');
    const spec = readFileSync(join(dir, `apps/${APP}/src/nightly-export/nightly-export.tools.spec.ts`), 'utf8');
    expect(spec).toContain("client.runTask('nightly_export'");
    expect(spec).toContain("['2025-11-25', '2026-07-28']");
  });

  it('those TODO: placeholders are not recorded by the contract gate and stop a production boot', () => {
    const fix = 'replace each with the real sentence (the generator left them for you to write)';
    const refundOrder =
      'tool "refund_order" publishes "TODO:" placeholders in description, mutation.sideEffects, mutation.retry, ' +
      `mutation.approval, input "text": ${fix}`;
    const contract = runStatus(dir, 'npm', ['run', '-s', 'contract', '--', APP]);
    expect(contract.status).toBe(1);
    expect(contract.output).toContain(`${APP}: not recorded: ${refundOrder}`);
    expect(contract.output).toContain(`${APP}: not recorded: prompt "daily_summary" publishes "TODO:"`);
    expect(contract.output).toContain(`${APP}: not recorded: skill "${SKILL_URI}" publishes "TODO:"`);
    expect(existsSync(join(dir, `apps/${APP}/mcp-contract.json`))).toBe(false);

    // The contract gate built the app; boot it as a deployment would (over stdio: no listener needed).
    const boot = (env: Record<string, string>) =>
      spawnSync(process.execPath, [`dist/apps/${APP}/apps/${APP}/src/main.js`, '--stdio'], {
        cwd: dir,
        env: serverEnv({ FORCE_COLOR: '0', ...env }),
        input: '',
        encoding: 'utf8',
        timeout: 60_000,
      });
    const production = boot({
      NODE_ENV: 'production',
      MCP_JWKS_URI: 'https://issuer.invalid/jwks',
      MCP_JWT_ISSUER: 'https://issuer.invalid',
      MCP_JWT_AUDIENCE: APP,
    });
    expect(production.status).not.toBe(0);
    expect(production.stderr).toMatch(/Invalid MCP registry \(\d+ problems\)/);
    expect(production.stderr).toContain(`RefundOrderTools.refundOrder: ${refundOrder}`);
    expect(production.stderr).toContain(
      `McpModule.forRoot({ skills }): skill "${SKILL_URI}" publishes "TODO:" placeholders in its SKILL.md frontmatter (description)`,
    );
    const development = boot({ NODE_ENV: 'development' });
    expect(development.status).toBe(0);
    // Log lines are JSON where stderr is not a terminal: compare the messages.
    const messages = development.stderr.split('\n').map((line) => {
      try {
        return String(JSON.parse(line).msg);
      } catch {
        return line;
      }
    });
    expect(messages).toContainEqual(expect.stringContaining(`${refundOrder} (refused when NODE_ENV=production)`));
  });

  it('once the TODO sentences are written, the contract is recorded', () => {
    // The team's part: a real sentence where each generated file says `TODO:` (here, the placeholder's own words).
    const sources = run(dir, 'git', [
      'ls-files',
      '--others',
      '--exclude-standard',
      `apps/${APP}/src`,
      `apps/${APP}/skills`,
    ]);
    for (const file of sources.split('\n').filter((f) => f.endsWith('.ts') || f.endsWith('SKILL.md'))) {
      const path = join(dir, file);
      writeFileSync(path, readFileSync(path, 'utf8').replace(/TODO: /g, ''));
    }
    expect(run(dir, 'npm', ['run', '-s', 'contract', '--', APP])).toContain(
      `${APP}: wrote apps/${APP}/mcp-contract.json`,
    );
    expect(run(dir, 'npm', ['run', '-s', 'contract:check', '--', APP])).toContain(`${APP}: contract OK`);
  });

  it('with the example app removed (npm run app:remove), the new app builds, lints, typechecks, passes its specs', () => {
    // Every other app under apps/ (the example) goes, the documented way.
    const cli = JSON.parse(readFileSync(join(dir, 'nest-cli.json'), 'utf8'));
    for (const [name, project] of Object.entries<{ root: string }>(cli.projects)) {
      if (name !== APP && project.root.startsWith('apps/')) run(dir, 'npm', ['run', '-s', 'app:remove', '--', name]);
    }
    expect(JSON.parse(readFileSync(join(dir, 'nest-cli.json'), 'utf8')).root).toBe(`apps/${APP}`);

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

  it('the built app serves the generated skill: skills/list over stdio, its SKILL.md read and verified', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [`dist/apps/${APP}/apps/${APP}/src/main.js`, '--stdio'],
      cwd: dir,
      env: serverEnv({ NODE_ENV: 'development', MCP_METRICS_PORT: 'false' }),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'own-server-skills', version: '1.0.0' });
    await client.connect(transport);
    try {
      const skills = new SkillsClient(client);
      const listing = await skills.list();
      expect(listing.skills.map((s) => [s.uri, s.frontmatter.name])).toEqual([[SKILL_URI, SKILL]]);
      expect(listing.skills[0].frontmatter.description).not.toContain('TODO:');
      const read = await skills.read((await skills.get(SKILL_URI)).skill);
      expect(read).toMatchObject({ verified: true, frontmatter: { name: SKILL } });
    } finally {
      await client.close();
    }
  });

  it('the built app serves the generated view, bundled by npm run build, and the tool linked to it', async () => {
    run(dir, 'npx', ['tsc', '-p', 'tsconfig.views.json']);
    const document = readFileSync(join(dir, `dist/apps/${APP}/apps/${APP}/views/sales-board.html`), 'utf8');
    expect(document).toMatch(/<script type="module">.*ui\/initialize/s);
    const uri = `ui://${APP}/sales-board`;
    const client = new Client({ name: 'own-server-e2e', version: '1.0.0' });
    const main = join(dir, `dist/apps/${APP}/apps/${APP}/src/main.js`);
    const env = serverEnv({ NODE_ENV: 'development', FORCE_COLOR: '0' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [main, '--stdio'], cwd: dir, env, stderr: 'ignore' }),
    );
    try {
      const { tools } = await client.listTools();
      const tool = tools.find((t) => t.name === 'show_sales_board');
      expect(tool?._meta?.ui).toEqual({ resourceUri: uri, visibility: ['model', 'app'] });
      const { contents } = await client.readResource({ uri });
      expect(contents).toEqual([
        expect.objectContaining({ uri, mimeType: 'text/html;profile=mcp-app', text: document }),
      ]);
      const shown = await client.callTool({ name: 'show_sales_board' });
      expect(shown.content).toEqual([{ type: 'text', text: expect.stringMatching(/^2 items:\n- First: 1/) }]);
    } finally {
      await client.close();
    }
  });

  it('passes its acceptance check on the first try: npm run compliance finds no failing MUST', () => {
    // Every generated tool is listed in the app README's Tools table by the generator (the doc.readme item).
    const readme = readFileSync(join(dir, `apps/${APP}/README.md`), 'utf8');
    for (const name of ['weather_forecast', 'refund_order', 'nightly_export'])
      expect(readme).toContain(`| \`${name}\` |`);
    const out = run(dir, 'npm', ['run', '-s', 'compliance', '--', APP, '--out', 'compliance-report.md']);
    expect(out).toMatch(/compliance: v1\.2: \d+ pass, \d+ fail \(0 MUST\)/);
    expect(out).not.toContain('a MUST fails');
  });

  it('a server generated with --type fastify serves on Fastify, and its own specs pass there', async () => {
    const EDGE = freeAppName(dir, 'edge');
    run(dir, 'npx', ['nest', 'g', 'mcp-server', EDGE, '--project', EDGE, '--type', 'fastify']);
    expect(readFileSync(join(dir, `apps/${EDGE}/src/main.ts`), 'utf8')).toContain("adapter: 'fastify'");
    run(dir, 'npm', ['run', 'build', '--', EDGE]);
    const specs = run(dir, 'npm', ['run', 'jest', '--', '--ci', `apps/${EDGE}`]);
    expect(specs).toMatch(/Tests:\s+\d+ passed, \d+ total/);
    expect(specs).not.toMatch(/failed/);
    // Its main.ts as a deployment runs it: the listening line names the adapter. Stopped once it has said so (it
    // was killed after a fixed 8 s before, whatever the time it took to listen).
    const started = await startHttpServer(
      join(dir, `dist/apps/${EDGE}/apps/${EDGE}/src/main.js`),
      serverEnv({ NODE_ENV: 'development', HOST: '127.0.0.1', PORT: '0', MCP_METRICS_PORT: 'false' }),
      dir,
    );
    await started.stop();
    expect(started.stderr()).toMatch(
      new RegExp(`${EDGE} MCP server listening on http://127\\.0\\.0\\.1:\\d+/mcp \\(fastify\\)`),
    );
  });
});
