import { APP_MODULE, expectRefusal, inShop, runner, withAppDocs, workspace } from '../../testing/schematics.fixture';

const VIEW = '/apps/shop/views/sales-dashboard';
const PROVIDER = '/apps/shop/src/sales-dashboard/sales-dashboard.app.ts';
const SPEC = '/apps/shop/src/sales-dashboard/sales-dashboard.app.spec.ts';

describe('mcp-app', () => {
  it('writes the view (index.html + main.ts with the App class), its provider and spec, registered in the module', async () => {
    const tree = await runner.runSchematic('mcp-app', { name: 'sales-dashboard', ...inShop }, workspace());
    const html = tree.readContent(`${VIEW}/index.html`);
    // The one entry script `npm run build` replaces with the bundle.
    expect(html.match(/<script\b[^>]*>/g)).toEqual(['<script type="module" src="./main.ts">']);
    expect(html).toContain('<title>Sales dashboard</title>');
    const main = tree.readContent(`${VIEW}/main.ts`);
    expect(main).toContain("from '@modelcontextprotocol/ext-apps'");
    for (const use of [
      'new App(',
      'app.ontoolresult',
      'applyDocumentTheme(',
      'applyHostStyleVariables(',
      'app.connect()',
    ])
      expect(main).toContain(use);
    expect(main).toContain("const TOOL = 'show_sales_dashboard';");
    expect(main).toContain('app.callServerTool({ name: TOOL, arguments: {} })');
    // Data reaches the DOM as text only.
    expect(main).toContain('.textContent =');
    expect(main).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);

    const provider = tree.readContent(PROVIDER);
    expect(provider).toContain('export class SalesDashboardApp');
    expect(provider).toContain("export const SALES_DASHBOARD_URI = 'ui://shop/sales-dashboard';");
    expect(provider).toContain("name: 'sales_dashboard',");
    expect(provider).toContain("view: 'sales-dashboard',");
    expect(provider).toContain("name: 'show_sales_dashboard',");
    expect(provider).toContain('ui: { resourceUri: SALES_DASHBOARD_URI }');
    expect(provider).toContain('annotations: { readOnlyHint: true, openWorldHint: false }');
    expect(provider).toContain("return { content: [{ type: 'text', text }], structuredContent: { items } };");
    // The view's and the tool's descriptions are for the team to write.
    expect(provider.match(/description:\s+'TODO: /g)).toHaveLength(2);

    const spec = tree.readContent(SPEC);
    expect(spec).toContain("await import('../../../../scripts/lib/build-views.mjs')");
    expect(spec).toContain("await buildViews(resolve(__dirname, '../../../..'), 'apps/shop', built);");
    expect(spec).toContain('MCP_VIEWS_DIR');
    const module = tree.readContent('/apps/shop/src/app.module.ts');
    expect(module).toContain("import { SalesDashboardApp } from './sales-dashboard/sales-dashboard.app';");
    expect(module).toMatch(/providers: \[SalesDashboardApp\]/);
  });

  it("wires the app's McpModule.forRoot to serve its built views, once", async () => {
    const once = await runner.runSchematic('mcp-app', { name: 'sales-dashboard', ...inShop }, workspace());
    const module = once.readContent('/apps/shop/src/app.module.ts');
    expect(module).toContain("McpModule.forRoot({ name: 'shop', views: { root: `${__dirname}/../views` } })");
    const twice = await runner.runSchematic('mcp-app', { name: 'stock-levels', ...inShop }, once);
    const after = twice.readContent('/apps/shop/src/app.module.ts');
    expect(after.match(/views:/g)).toHaveLength(1);
    expect(after).toContain('providers: [SalesDashboardApp, StockLevelsApp]');
    expect(twice.files).toContain('/apps/shop/views/stock-levels/main.ts');
  });

  it('--path and --flat place the provider (and the spec reaches the repository root from there)', async () => {
    const tree = await runner.runSchematic(
      'mcp-app',
      { name: 'sales-dashboard', ...inShop, path: 'reports', flat: true },
      workspace(),
    );
    expect(tree.files).toContain('/apps/shop/src/reports/sales-dashboard.app.ts');
    expect(tree.files).toContain(`${VIEW}/index.html`);
    const spec = tree.readContent('/apps/shop/src/reports/sales-dashboard.app.spec.ts');
    expect(spec).toContain("await import('../../../../scripts/lib/build-views.mjs')");
  });

  it('notes the view and its tool in the CHANGELOG and lists them in the README', async () => {
    const tree = withAppDocs();
    const table = '| Tool | Scopes | What it does |\n| --- | --- | --- |\n| `get_greeting` | none | Greets. |\n';
    tree.overwrite(
      '/apps/shop/README.md',
      `# shop\n\n## Tools\n\n${table}\n${tree.readContent('/apps/shop/README.md')}`,
    );
    const out = await runner.runSchematic('mcp-app', { name: 'sales-dashboard', ...inShop }, tree);
    expect(out.readContent('/apps/shop/CHANGELOG.md')).toContain(
      '### Added\n- View `ui://shop/sales-dashboard` and its tool `show_sales_dashboard`: TODO: say what it shows.\n',
    );
    const readme = out.readContent('/apps/shop/README.md');
    expect(readme).toContain('| `show_sales_dashboard` | none | TODO: say what it does, as its description does. |');
    expect(readme).toContain(
      '| `ui://shop/sales-dashboard` | view | TODO: say what it does, as its description does. |',
    );
  });

  it('refuses a view folder that already exists, writing nothing', async () => {
    const tree = workspace();
    tree.create(`${VIEW}/index.html`, '<!doctype html>\n');
    const before = tree.readContent('/apps/shop/src/app.module.ts');
    await expect(runner.runSchematic('mcp-app', { name: 'sales-dashboard', ...inShop }, tree)).rejects.toMatchObject({
      message: 'mcp-app: apps/shop/views/sales-dashboard/ already exists: choose another name or delete it first',
    });
    expect(tree.readContent('/apps/shop/src/app.module.ts')).toBe(before);
    expect(tree.files).not.toContain(PROVIDER);
  });

  it('refuses a provider that already exists (a second import would break the module)', async () => {
    const tree = workspace();
    tree.create(PROVIDER, 'export class SalesDashboardApp {}\n');
    await expect(runner.runSchematic('mcp-app', { name: 'sales-dashboard', ...inShop }, tree)).rejects.toMatchObject({
      message:
        'mcp-app: apps/shop/src/sales-dashboard/sales-dashboard.app.ts already exists: choose another name or delete it first',
    });
    expect(tree.readContent('/apps/shop/src/app.module.ts')).toBe(APP_MODULE);
    expect(tree.files).not.toContain(`${VIEW}/main.ts`);
  });

  const kebab = (name: string) =>
    `mcp-app: invalid name ${JSON.stringify(name)}: use lower-case kebab-case like "sales-dashboard"`;
  it.each([
    [{ name: 'Sales_Dashboard' }, kebab('Sales_Dashboard')],
    [{ name: 'salesDashboard' }, kebab('salesDashboard')],
    [{ name: '' }, kebab('')],
    [{ name: 'x'.repeat(60) }, `${kebab('x'.repeat(60))} of at most 59 characters`],
    [{ name: 'x', type: 'react' }, 'mcp-app: unknown --type "react": it takes no --type'],
    [
      { name: 'x', project: 'nowhere', sourceRoot: undefined },
      'mcp-app: unknown --project "nowhere": pass --project <app>; the apps under apps/ are: shop',
    ],
    [
      { name: 'x', project: 'kit', sourceRoot: undefined },
      'mcp-app: unknown --project "kit": pass --project <app>; the apps under apps/ are: shop',
    ],
  ])('%j is refused with one line, writing nothing', async (opts, message) => {
    await expectRefusal('mcp-app', { ...inShop, ...opts }, message);
  });
});
