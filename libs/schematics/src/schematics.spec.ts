import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { HostTree } from '@angular-devkit/schematics';
import { SchematicTestRunner, UnitTestTree } from '@angular-devkit/schematics/testing';

/** The compiled collection (the test command builds libs/schematics first, as `npm ci` does via prepare). */
const runner = new SchematicTestRunner('@app/mcp-schematics', resolve(__dirname, '../collection.json'));
const REPO = resolve(__dirname, '../../..');

/** A heading's anchor as Markdown renderers make it: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');
const headingSlugs = (markdown: string) => [...markdown.matchAll(/^#{1,6} (.+)$/gm)].map(([, h]) => slug(h));

const APP_MODULE = `import { Module } from '@nestjs/common';
import { McpModule } from '@app/mcp';

@Module({
  imports: [McpModule.forRoot({ name: 'shop' })],
})
export class AppModule {}
`;

/** A monorepo with one app `shop` (service name and URI scheme `shop`) and one library `kit`. */
function workspace(): UnitTestTree {
  const tree = new UnitTestTree(new HostTree());
  tree.create(
    'nest-cli.json',
    JSON.stringify({
      monorepo: true,
      root: 'apps/shop',
      projects: { shop: { type: 'application', root: 'apps/shop' }, kit: { type: 'library', root: 'libs/kit' } },
    }),
  );
  tree.create('package.json', '{}');
  tree.create('apps/shop/src/app.module.ts', APP_MODULE);
  return tree;
}

const inShop = { sourceRoot: 'apps/shop/src', project: 'shop' };

/** The README section the prompt and resource generators fill (as `nest g mcp-server` writes it), plus `rows`. */
function readmeWith(...rows: string[]): string {
  const table = [
    '| Prompt or resource | Kind | What it does |',
    '| --- | --- | --- |',
    '| `agent_brief` | prompt | Built in. |',
    ...rows,
  ];
  return `# shop\n\n## Prompts and resources\n\n${table.join('\n')}\n\n## Run\n`;
}

/** The workspace with the app's README and CHANGELOG, as `nest g mcp-server` writes them. */
function withAppDocs(): UnitTestTree {
  const tree = workspace();
  tree.create('apps/shop/README.md', readmeWith());
  tree.create('apps/shop/CHANGELOG.md', '# Changelog\n\n## [Unreleased]\n\n## [0.1.0]\n');
  return tree;
}

/** Runs a schematic that must refuse: the one-line message, and not one file written or changed. */
async function expectRefusal(schematic: string, options: object, message: string): Promise<void> {
  const tree = workspace();
  const before = new Map(tree.files.map((f) => [f, tree.readContent(f)]));
  const refused = runner.runSchematic(schematic, options, tree);
  // The whole message, exactly: one line, nothing appended.
  await expect(refused).rejects.toMatchObject({ message });
  expect(message).not.toContain('\n');
  expect(new Map(tree.files.map((f) => [f, tree.readContent(f)]))).toEqual(before);
}

describe('mcp-tool', () => {
  it('notes the new tool under [Unreleased] in the app CHANGELOG', async () => {
    const tree = workspace();
    tree.create('apps/shop/CHANGELOG.md', '# Changelog\n\n## [Unreleased]\n\n## [0.1.0]\n');
    const out = await runner.runSchematic('mcp-tool', { name: 'find-order', ...inShop }, tree);
    expect(out.readContent('/apps/shop/CHANGELOG.md')).toBe(
      '# Changelog\n\n## [Unreleased]\n\n### Added\n- Tool `find_order`: TODO: say what it does.\n\n## [0.1.0]\n',
    );
  });

  it('leaves no generated value without a TODO: marker: the argument example is one too', async () => {
    const tree = await runner.runSchematic('mcp-tool', { name: 'find-order', ...inShop }, workspace());
    const dto = tree.readContent('/apps/shop/src/find-order/dto/find-order.dto.ts');
    const examples = /examples: \[([^\]]*)\]/.exec(dto)?.[1];
    expect(examples).toMatch(/^'TODO: /);
  });

  it('lists the new tool in the Tools table of the app README (the acceptance check wants every tool named there)', async () => {
    const tree = workspace();
    const table = '| Tool | Scopes | What it does |\n| --- | --- | --- |\n| `get_greeting` | none | Greets. |\n';
    tree.create('apps/shop/README.md', `# shop\n\n## Tools\n\n${table}\n## Run\n`);
    const out = await runner.runSchematic('mcp-tool', { name: 'find-order', ...inShop }, tree);
    expect(out.readContent('/apps/shop/README.md')).toBe(
      `# shop\n\n## Tools\n\n${table}| \`find_order\` | none | TODO: say what it does, as its description does. |\n\n## Run\n`,
    );
  });

  it('writes a read-only tool, its DTO and its spec, with a snake_case MCP name, registered in the nearest module', async () => {
    const tree = await runner.runSchematic('mcp-tool', { name: 'weather-forecast', ...inShop }, workspace());
    expect(tree.files).toEqual(
      expect.arrayContaining([
        '/apps/shop/src/weather-forecast/weather-forecast.tools.ts',
        '/apps/shop/src/weather-forecast/weather-forecast.tools.spec.ts',
        '/apps/shop/src/weather-forecast/dto/weather-forecast.dto.ts',
      ]),
    );
    const tool = tree.readContent('/apps/shop/src/weather-forecast/weather-forecast.tools.ts');
    expect(tool).toContain('export class WeatherForecastTools');
    expect(tool).toContain("name: 'weather_forecast'");
    expect(tool).toContain('annotations: { readOnlyHint: true }');
    expect(tool).not.toContain('mutation:');
    const module = tree.readContent('/apps/shop/src/app.module.ts');
    expect(module).toContain("import { WeatherForecastTools } from './weather-forecast/weather-forecast.tools';");
    expect(module).toMatch(/providers: \[WeatherForecastTools\]/);
  });

  it.each([
    [{ type: 'high' }, 'high', 'true'],
    [{ type: 'low' }, 'low', 'false'],
    [{ mutating: true }, 'medium', 'false'],
    [{ mutating: true, risk: 'high' }, 'high', 'true'],
  ])('%j: a mutating tool with every mutation field as a TODO placeholder', async (opts, risk, destructive) => {
    const tree = await runner.runSchematic('mcp-tool', { name: 'refund-order', ...inShop, ...opts }, workspace());
    const tool = tree.readContent('/apps/shop/src/refund-order/refund-order.tools.ts');
    expect(tool).toContain(`risk: '${risk}'`);
    expect(tool).toContain(`destructiveHint: ${destructive}`);
    // The platform keeps and replays the first answer: the generated tool holds no state of its own.
    expect(tool).toContain("idempotency: { key: 'requestId', replay: true }");
    expect(tool).not.toMatch(/new Map|private readonly/);
    for (const field of ['sideEffects', 'retry', 'approval']) expect(tool).toMatch(new RegExp(`${field}: 'TODO: `));
    expect(tree.readContent('/apps/shop/src/refund-order/dto/refund-order.dto.ts')).toContain('requestId!: string;');
  });

  it('--type task: a read-only tool run as a task, with progress, and a spec that drives it in both eras', async () => {
    const tree = await runner.runSchematic(
      'mcp-tool',
      { name: 'nightly-export', ...inShop, type: 'task' },
      workspace(),
    );
    const tool = tree.readContent('/apps/shop/src/nightly-export/nightly-export.tools.ts');
    expect(tool).toContain("task: 'optional'");
    expect(tool).toContain('annotations: { readOnlyHint: true }');
    expect(tool).toContain('ctx.signal.throwIfAborted()');
    expect(tool).toContain('ctx.reportProgress(step, steps');
    const spec = tree.readContent('/apps/shop/src/nightly-export/nightly-export.tools.spec.ts');
    expect(spec).toContain("client.runTask('nightly_export', { text: 'hello' })");
  });

  it('--flat puts the files in the source folder; --no-spec leaves the spec out; --skip-import leaves the module alone', async () => {
    const tree = await runner.runSchematic(
      'mcp-tool',
      { name: 'ping', ...inShop, flat: true, spec: false, skipImport: true },
      workspace(),
    );
    expect(tree.files).toContain('/apps/shop/src/ping.tools.ts');
    expect(tree.files).not.toContain('/apps/shop/src/ping.tools.spec.ts');
    expect(tree.readContent('/apps/shop/src/app.module.ts')).toBe(APP_MODULE);
  });

  const kebab = (name: string) =>
    `mcp-tool: invalid name ${JSON.stringify(name)}: use lower-case kebab-case like "find-order"`;
  it.each([
    // What the Nest CLI makes of `Bad_Name`, and names it would not rewrite.
    [{ name: 'bad_name' }, kebab('bad_name')],
    [{ name: 'Bad-Name' }, kebab('Bad-Name')],
    [{ name: 'weatherForecast' }, kebab('weatherForecast')],
    [{ name: '1x' }, kebab('1x')],
    [{ name: '' }, kebab('')],
    [{ name: 'two words' }, kebab('two words')],
    [{ name: 'trailing-' }, kebab('trailing-')],
    [{ name: 'x'.repeat(61) }, `${kebab('x'.repeat(61))} of at most 60 characters`],
    [{ name: 'orders/find-order' }, `${kebab('orders/find-order')} (a folder goes in --path)`],
    [{ name: 'x', type: 'extreme' }, 'mcp-tool: unknown --type "extreme": use readonly, low, medium, high or task'],
    [{ name: 'x', type: 'HIGH' }, 'mcp-tool: unknown --type "HIGH": use readonly, low, medium, high or task'],
    [{ name: 'x', mutating: true, risk: 'extreme' }, 'mcp-tool: unknown --risk "extreme": use low, medium or high'],
    [{ name: 'x', risk: 'high' }, 'mcp-tool: --risk goes with --mutating'],
    [
      { name: 'x', project: 'nope' },
      'mcp-tool: unknown --project "nope": pass --project <app>; the apps under apps/ are: shop',
    ],
    [
      { name: 'x', project: 'kit' },
      'mcp-tool: unknown --project "kit": pass --project <app>; the apps under apps/ are: shop',
    ],
  ])('%j is refused with one line saying what to pass, writing nothing', async (opts, message) => {
    await expectRefusal('mcp-tool', { ...inShop, ...opts }, message);
  });

  it('refuses a tool that already exists (a second import would break the module), writing nothing', async () => {
    const tree = await runner.runSchematic('mcp-tool', { name: 'find-order', ...inShop }, workspace());
    const before = tree.readContent('/apps/shop/src/app.module.ts');
    await expect(runner.runSchematic('mcp-tool', { name: 'find-order', ...inShop }, tree)).rejects.toMatchObject({
      message:
        'mcp-tool: apps/shop/src/find-order/find-order.tools.ts already exists: choose another name or delete it first',
    });
    expect(tree.readContent('/apps/shop/src/app.module.ts')).toBe(before);
  });

  it('asks for the application when it has no project or path', async () => {
    await expectRefusal('mcp-tool', { name: 'x' }, 'mcp-tool: pass --project <app>; the apps under apps/ are: shop');
  });

  it('refuses a place with no module above it unless --skip-import', async () => {
    const tree = new UnitTestTree(new HostTree());
    tree.create('nest-cli.json', '{}');
    await expect(runner.runSchematic('mcp-tool', { name: 'x', sourceRoot: 'apps/none/src' }, tree)).rejects.toThrow(
      'no *.module.ts at or above',
    );
  });
});

describe('mcp-prompt', () => {
  it('writes a prompt provider and its spec, registered in the module', async () => {
    const tree = await runner.runSchematic('mcp-prompt', { name: 'daily-summary', ...inShop }, workspace());
    const prompt = tree.readContent('/apps/shop/src/daily-summary/daily-summary.prompts.ts');
    expect(prompt).toContain('export class DailySummaryPrompts');
    expect(prompt).toContain("name: 'daily_summary'");
    expect(tree.files).toContain('/apps/shop/src/daily-summary/daily-summary.prompts.spec.ts');
    expect(tree.readContent('/apps/shop/src/app.module.ts')).toContain('providers: [DailySummaryPrompts]');
  });

  it('notes the prompt in the CHANGELOG and lists it in the README table of prompts and resources, each with a TODO:', async () => {
    const out = await runner.runSchematic('mcp-prompt', { name: 'daily-summary', ...inShop }, withAppDocs());
    expect(out.readContent('/apps/shop/CHANGELOG.md')).toContain(
      '### Added\n- Prompt `daily_summary`: TODO: say what it does.\n',
    );
    expect(out.readContent('/apps/shop/README.md')).toBe(
      readmeWith('| `daily_summary` | prompt | TODO: say what it does, as its description does. |'),
    );
  });

  it.each([
    [
      { name: 'Daily_Summary' },
      'mcp-prompt: invalid name "Daily_Summary": use lower-case kebab-case like "daily-summary"',
    ],
    [{ name: 'x', type: 'template' }, 'mcp-prompt: unknown --type "template": it takes no --type'],
  ])('%j is refused, writing nothing', async (opts, message) => {
    await expectRefusal('mcp-prompt', { ...inShop, ...opts }, message);
  });
});

describe('mcp-resource', () => {
  it("uses the app's service name as the URI scheme", async () => {
    const tree = await runner.runSchematic('mcp-resource', { name: 'price-list', ...inShop }, workspace());
    const resource = tree.readContent('/apps/shop/src/price-list/price-list.resources.ts');
    expect(resource).toContain("uri: 'shop://price-list'");
    expect(resource).toContain('@McpResource(');
  });

  it('names the resource by its MCP name in the CHANGELOG and by its URI in the README, each with a TODO:', async () => {
    const out = await runner.runSchematic('mcp-resource', { name: 'price-list', ...inShop }, withAppDocs());
    expect(out.readContent('/apps/shop/CHANGELOG.md')).toContain(
      '### Added\n- Resource `price_list` (`shop://price-list`): TODO: say what it does.\n',
    );
    expect(out.readContent('/apps/shop/README.md')).toBe(
      readmeWith('| `shop://price-list` | resource | TODO: say what it does, as its description does. |'),
    );
    const template = await runner.runSchematic(
      'mcp-resource',
      { name: 'invoice', ...inShop, type: 'template' },
      withAppDocs(),
    );
    expect(template.readContent('/apps/shop/README.md')).toBe(
      readmeWith('| `shop://invoice/{id}` | resource template | TODO: say what it does, as its description does. |'),
    );
  });

  it('--type template writes an @McpResourceTemplate with an {id} variable', async () => {
    const tree = await runner.runSchematic(
      'mcp-resource',
      { name: 'invoice', ...inShop, type: 'template' },
      workspace(),
    );
    const resource = tree.readContent('/apps/shop/src/invoice/invoice.resources.ts');
    expect(resource).toContain("uriTemplate: 'shop://invoice/{id}'");
    expect(resource).toContain("@McpArgs('id') id: string");
  });

  it('refuses an unknown --type, naming the accepted ones', async () => {
    await expectRefusal(
      'mcp-resource',
      { name: 'x', ...inShop, type: 'stream' },
      'mcp-resource: unknown --type "stream": use fixed or template',
    );
  });
});

describe('mcp-server', () => {
  it('creates apps/<name> and registers it in nest-cli.json', async () => {
    const tree = await runner.runSchematic('mcp-server', { name: 'new-server' }, workspace());
    for (const file of [
      'src/main.ts',
      'src/instrumentation.ts',
      'src/app.module.ts',
      'src/greeting/greeting.tools.ts',
      'src/greeting/dto/greeting.dto.ts',
      'src/health/app-health.module.ts',
      'agent/brief.md',
      'agent/prompt.md',
      'README.md',
      'CHANGELOG.md',
      'package.json',
      'tsconfig.app.json',
      'test/new-server.e2e-spec.ts',
    ]) {
      expect(tree.files).toContain(`/apps/new-server/${file}`);
    }
    expect(tree.readContent('/apps/new-server/src/main.ts')).toContain(
      'void bootstrapMcpServer(AppModule, { telemetry });',
    );
    expect(tree.readContent('/apps/new-server/src/app.module.ts')).toContain("name: 'new-server'");
    expect(Buffer.byteLength(tree.readContent('/apps/new-server/agent/brief.md'))).toBeLessThan(2048);
    const cli = JSON.parse(tree.readContent('/nest-cli.json'));
    expect(cli.projects['new-server']).toMatchObject({
      type: 'application',
      root: 'apps/new-server',
      entryFile: 'apps/new-server/src/main',
      sourceRoot: 'apps/new-server/src',
    });
    expect(cli.projects.shop).toBeDefined();
  });

  const kebab = (name: string) =>
    `mcp-server: invalid name ${JSON.stringify(name)}: use lower-case kebab-case like "orders"`;
  it.each([
    [{ name: 'Orders' }, kebab('Orders')],
    [{ name: '1x' }, kebab('1x')],
    [{ name: '' }, kebab('')],
    [{ name: 'my_orders' }, kebab('my_orders')],
    // `nest g mcp-server Bad_Name --project Bad_Name` arrives as name `bad_name`, project as typed.
    [{ name: 'bad_name', project: 'Bad_Name' }, kebab('Bad_Name')],
    [{ name: 'bad-name', project: 'BadName' }, kebab('BadName')],
    [{ name: 'new-server', project: 'billing' }, 'mcp-server: --project "billing" must repeat the name "new-server"'],
    [{ name: 'new-server', type: 'large' }, 'mcp-server: unknown --type "large": use express or fastify'],
    [{ name: 'shop' }, 'mcp-server: a project "shop" already exists'],
  ])('%j is refused, writing nothing', async (opts, message) => {
    await expectRefusal('mcp-server', opts, message);
  });

  it('--type fastify serves the app on Fastify, and its e2e spec boots it there', async () => {
    const tree = await runner.runSchematic('mcp-server', { name: 'new-server', type: 'fastify' }, workspace());
    expect(tree.readContent('/apps/new-server/src/main.ts')).toContain(
      "void bootstrapMcpServer(AppModule, { telemetry, adapter: 'fastify' });",
    );
    expect(tree.readContent('/apps/new-server/test/new-server.e2e-spec.ts')).toContain(
      "server = await startMcpTestServer(AppModule, { adapter: 'fastify' });",
    );
    expect(tree.readContent('/apps/new-server/README.md')).toContain("on Nest's Fastify adapter");
    const express = await runner.runSchematic('mcp-server', { name: 'new-server', type: 'express' }, workspace());
    expect(express.readContent('/apps/new-server/src/main.ts')).not.toContain('adapter');
    expect(express.readContent('/apps/new-server/test/new-server.e2e-spec.ts')).toContain(
      'server = await startMcpTestServer(AppModule);',
    );
  });

  it('points the reader only at sections that exist: docs/*.md#section in the repository, README sections by name', async () => {
    const tree = await runner.runSchematic('mcp-server', { name: 'new-server' }, workspace());
    const app = tree.files.filter((f) => f.startsWith('/apps/new-server/'));
    const readme = tree.readContent('/apps/new-server/README.md');
    const pointers: string[] = [];
    for (const file of app) {
      const text = tree.readContent(file);
      for (const [, doc, anchor] of text.matchAll(/\bdocs\/([a-z-]+\.md)#([a-z0-9-]+)/g)) {
        pointers.push(`${doc}#${anchor}`);
        const headings = headingSlugs(readFileSync(resolve(REPO, 'docs', doc), 'utf8'));
        expect({ file, pointer: `docs/${doc}#${anchor}`, exists: headings.includes(anchor) }).toMatchObject({
          exists: true,
        });
      }
      // "the README's Configuration section", "the template's README names ...": a README the reader cannot find.
      for (const [sentence, section] of text.matchAll(/README's ([A-Z][\w ]*?) section/g)) {
        expect({ file, sentence, exists: headingSlugs(readme).includes(slug(section)) }).toMatchObject({
          exists: true,
        });
      }
      expect({ file, vague: /template's README/.test(text) }).toEqual({ file, vague: false });
    }
    // Where the settings are: the app module and the README's limits line both say it.
    expect(pointers).toEqual(expect.arrayContaining(['deploying.md#configuration', 'limits-and-errors.md#limits']));
  });

  it('writes the README table that nest g mcp-prompt and mcp-resource fill', async () => {
    const app = { sourceRoot: 'apps/new-server/src', project: 'new-server' };
    let tree = await runner.runSchematic('mcp-server', { name: 'new-server' }, workspace());
    tree = await runner.runSchematic('mcp-prompt', { name: 'daily-summary', ...app }, tree);
    tree = await runner.runSchematic('mcp-resource', { name: 'price-list', ...app }, tree);
    const readme = tree.readContent('/apps/new-server/README.md');
    const section = readme.slice(readme.indexOf('## Prompts and resources'));
    const rows = section
      .slice(0, section.indexOf('\n## '))
      .split('\n')
      .filter((l) => l.startsWith('| `'));
    expect(rows.slice(-2)).toEqual([
      '| `daily_summary` | prompt | TODO: say what it does, as its description does. |',
      '| `new-server://price-list` | resource | TODO: say what it does, as its description does. |',
    ]);
    expect(rows.map((r) => r.split(' | ')[0])).toEqual(
      expect.arrayContaining(['| `agent_brief`', '| `agent_prompt`', '| `project://version`', '| `doc://readme`']),
    );
  });

  it('takes --project when it repeats the name (how `nest g` skips its project picker)', async () => {
    const tree = await runner.runSchematic('mcp-server', { name: 'new-server', project: 'new-server' }, workspace());
    expect(tree.files).toContain('/apps/new-server/src/main.ts');
  });
});
