import { runner, inShop, workspace, expectRefusal } from '../../testing/schematics.fixture';

describe('mcp-downstream', () => {
  const generate = (options: Record<string, unknown> = {}, tree = workspace()) =>
    runner.runSchematic('mcp-downstream', { name: 'asset-inventory', ...inShop, ...options }, tree);
  const DIR = '/apps/shop/src/asset-inventory';

  it('writes the client options, its module, a tool with its DTO and a spec, in a folder of its own', async () => {
    const tree = await generate();
    expect(tree.files.filter((f) => f.startsWith(DIR)).sort()).toEqual(
      [
        `${DIR}/asset-inventory.downstream.ts`,
        `${DIR}/asset-inventory.module.ts`,
        `${DIR}/asset-inventory.tools.ts`,
        `${DIR}/asset-inventory.tools.spec.ts`,
        `${DIR}/dto/asset-inventory-item.dto.ts`,
      ].sort(),
    );
  });

  it('reads <NAME>_URL and <NAME>_API_KEY at boot, refusing to start without them, with a static key', async () => {
    const options = (await generate()).readContent(`${DIR}/asset-inventory.downstream.ts`);
    expect(options).toContain("export const ASSET_INVENTORY_DOWNSTREAM = 'asset-inventory';");
    expect(options).toContain('export function assetInventoryDownstream(env: NodeJS.ProcessEnv)');
    expect(options).toContain('env.ASSET_INVENTORY_URL?.trim()');
    expect(options).toContain('env.ASSET_INVENTORY_API_KEY?.trim()');
    expect(options).toContain("credentials: { type: 'static', header: 'X-Api-Key', value: apiKey }");
    expect(options).toContain('throw new Error(`asset-inventory downstream: set ${missing.join');
  });

  it('registers the client with McpDownstreamModule.registerAsync and imports the module into the app module', async () => {
    const tree = await generate();
    const module = tree.readContent(`${DIR}/asset-inventory.module.ts`);
    expect(module).toMatch(/McpDownstreamModule\.registerAsync\(\{\s*name: ASSET_INVENTORY_DOWNSTREAM,/);
    expect(module).toContain('useFactory: () => assetInventoryDownstream(process.env)');
    expect(module).toContain('providers: [AssetInventoryTools]');
    const app = tree.readContent('/apps/shop/src/app.module.ts');
    expect(app).toContain("import { AssetInventoryModule } from './asset-inventory/asset-inventory.module';");
    expect(app).toMatch(/imports: \[McpModule\.forRoot\(\{ name: 'shop' \}\), AssetInventoryModule\]/);
  });

  it('writes a read-only tool that calls the client, with TODO: sentences for the team to replace', async () => {
    const tree = await generate();
    const tools = tree.readContent(`${DIR}/asset-inventory.tools.ts`);
    expect(tools).toContain('@InjectDownstream(ASSET_INVENTORY_DOWNSTREAM) private readonly assetInventory');
    expect(tools).toContain("name: 'get_asset_inventory_item'");
    expect(tools).toMatch(/description:\s*'TODO: /);
    expect(tools).toContain('annotations: { readOnlyHint: true }');
    expect(tools).toContain('this.assetInventory.get<Record<string, unknown>>(`items/${encodeURIComponent(id)}`)');
    const dto = tree.readContent(`${DIR}/dto/asset-inventory-item.dto.ts`);
    expect(/description: '([^']*)'/.exec(dto)?.[1]).toMatch(/^TODO: /);
    expect(/examples: \[([^\]]*)\]/.exec(dto)?.[1]).toMatch(/^'TODO: /);
  });

  it('writes a spec that starts a test double of the service and points the client at it', async () => {
    const spec = (await generate()).readContent(`${DIR}/asset-inventory.tools.spec.ts`);
    expect(spec).toContain('ASSET_INVENTORY_URL: `http://127.0.0.1:${port}/`, ASSET_INVENTORY_API_KEY: KEY');
    expect(spec).toContain("client.callTool('get_asset_inventory_item', { id: 'A-1' })");
    expect(spec).toContain('expect(seen[0].headers.authorization).toBeUndefined();');
  });

  it('notes the tool in the app CHANGELOG and lists it in the README Tools table', async () => {
    const tree = workspace();
    tree.create('apps/shop/CHANGELOG.md', '# Changelog\n\n## [Unreleased]\n\n## [0.1.0]\n');
    const table = '| Tool | Scopes | What it does |\n| --- | --- | --- |\n';
    tree.create('apps/shop/README.md', `# shop\n\n## Tools\n\n${table}\n## Run\n`);
    const out = await generate({}, tree);
    expect(out.readContent('/apps/shop/CHANGELOG.md')).toContain(
      '### Added\n- Tool `get_asset_inventory_item`: TODO: say what it does.\n',
    );
    expect(out.readContent('/apps/shop/README.md')).toContain(
      '| `get_asset_inventory_item` | none | TODO: say what it does, as its description does. |',
    );
  });

  it('--no-spec leaves the spec out; --skip-import leaves the app module alone', async () => {
    const tree = await generate({ spec: false, skipImport: true });
    expect(tree.files).not.toContain(`${DIR}/asset-inventory.tools.spec.ts`);
    expect(tree.readContent('/apps/shop/src/app.module.ts')).not.toContain('AssetInventoryModule');
  });

  it('refuses a bad name, a --type, an unknown project, and a downstream that already exists', async () => {
    const options = { name: 'asset-inventory', ...inShop };
    await expectRefusal(
      'mcp-downstream',
      { ...options, name: 'AssetInventory' },
      'mcp-downstream: invalid name "AssetInventory": use lower-case kebab-case like "asset-inventory"',
    );
    await expectRefusal(
      'mcp-downstream',
      { ...options, type: 'oauth' },
      'mcp-downstream: unknown --type "oauth": it takes no --type',
    );
    await expectRefusal(
      'mcp-downstream',
      { name: 'asset-inventory', project: 'nope' },
      'mcp-downstream: unknown --project "nope": pass --project <app>; the apps under apps/ are: shop',
    );
    const once = await generate();
    await expect(generate({}, once)).rejects.toMatchObject({
      message:
        'mcp-downstream: apps/shop/src/asset-inventory/asset-inventory.module.ts already exists: choose another name or delete it first',
    });
  });
});
