import { HostTree } from '@angular-devkit/schematics';
import { UnitTestTree } from '@angular-devkit/schematics/testing';
import { runner, APP_MODULE, inShop, workspace, expectRefusal } from '../../testing/schematics.fixture';

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
