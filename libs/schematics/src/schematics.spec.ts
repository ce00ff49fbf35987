import { resolve } from 'node:path';
import { HostTree } from '@angular-devkit/schematics';
import { SchematicTestRunner, UnitTestTree } from '@angular-devkit/schematics/testing';

/** The compiled collection (the test command builds libs/schematics first, as `npm ci` does via prepare). */
const runner = new SchematicTestRunner('@app/mcp-schematics', resolve(__dirname, '../collection.json'));

const APP_MODULE = `import { Module } from '@nestjs/common';
import { McpModule } from '@app/mcp';

@Module({
  imports: [McpModule.forRoot({ name: 'shop' })],
})
export class AppModule {}
`;

/** A monorepo with one app `shop` (service name and URI scheme `shop`). */
function workspace(): UnitTestTree {
  const tree = new UnitTestTree(new HostTree());
  tree.create(
    'nest-cli.json',
    JSON.stringify({
      monorepo: true,
      root: 'apps/shop',
      projects: { shop: { type: 'application', root: 'apps/shop' } },
    }),
  );
  tree.create('package.json', '{}');
  tree.create('apps/shop/src/app.module.ts', APP_MODULE);
  return tree;
}

const inShop = { sourceRoot: 'apps/shop/src', project: 'shop' };

describe('mcp-tool', () => {
  it('writes a read-only tool, its DTO and its spec, with a snake_case MCP name, registered in the nearest module', async () => {
    const tree = await runner.runSchematic('mcp-tool', { name: 'weatherForecast', ...inShop }, workspace());
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
    expect(tool).toContain("idempotency: { key: 'requestId' }");
    for (const field of ['sideEffects', 'retry', 'approval']) expect(tool).toMatch(new RegExp(`${field}: 'TODO: `));
    expect(tree.readContent('/apps/shop/src/refund-order/dto/refund-order.dto.ts')).toContain('requestId!: string;');
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

  it.each([
    [{ name: '1st-tool' }, 'the name must start with a letter'],
    [{ name: 'x', type: 'extreme' }, '--type must be readonly, low, medium or high'],
    [{ name: 'x', mutating: true, risk: 'extreme' }, '--risk must be low, medium or high'],
    [{ name: 'x', risk: 'high' }, '--risk goes with --mutating'],
  ])('%j is refused with a clear message', async (opts, message) => {
    await expect(runner.runSchematic('mcp-tool', { ...inShop, ...opts }, workspace())).rejects.toThrow(message);
  });

  it('asks for the application when it has no project or path', async () => {
    await expect(runner.runSchematic('mcp-tool', { name: 'x' }, workspace())).rejects.toThrow('--project <app>');
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
});

describe('mcp-resource', () => {
  it("uses the app's service name as the URI scheme", async () => {
    const tree = await runner.runSchematic('mcp-resource', { name: 'price-list', ...inShop }, workspace());
    const resource = tree.readContent('/apps/shop/src/price-list/price-list.resources.ts');
    expect(resource).toContain("uri: 'shop://price-list'");
    expect(resource).toContain('@McpResource(');
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

  it('refuses an unknown --type', async () => {
    await expect(
      runner.runSchematic('mcp-resource', { name: 'x', ...inShop, type: 'stream' }, workspace()),
    ).rejects.toThrow('--type must be fixed or template');
  });
});

describe('mcp-server', () => {
  it('creates apps/<name> and registers it in nest-cli.json', async () => {
    const tree = await runner.runSchematic('mcp-server', { name: 'orders' }, workspace());
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
      'test/orders.e2e-spec.ts',
    ]) {
      expect(tree.files).toContain(`/apps/orders/${file}`);
    }
    expect(tree.readContent('/apps/orders/src/main.ts')).toContain(
      'void bootstrapMcpServer(AppModule, { telemetry });',
    );
    expect(tree.readContent('/apps/orders/src/app.module.ts')).toContain("name: 'orders'");
    expect(Buffer.byteLength(tree.readContent('/apps/orders/agent/brief.md'))).toBeLessThan(2048);
    const cli = JSON.parse(tree.readContent('/nest-cli.json'));
    expect(cli.projects.orders).toMatchObject({
      type: 'application',
      root: 'apps/orders',
      entryFile: 'apps/orders/src/main',
      sourceRoot: 'apps/orders/src',
    });
    expect(cli.projects.shop).toBeDefined();
  });

  it.each([
    ['Orders', 'lower-case letters'],
    ['shop', 'a project "shop" already exists'],
  ])('refuses %s', async (name, message) => {
    await expect(runner.runSchematic('mcp-server', { name }, workspace())).rejects.toThrow(message);
  });
});
