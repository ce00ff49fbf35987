import { runner, inShop, workspace, readmeWith, withAppDocs, expectRefusal } from '../../testing/schematics.fixture';

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
