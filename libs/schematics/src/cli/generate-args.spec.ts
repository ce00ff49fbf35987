import { GenerateSetting, checkGenerateArgs, parseGenerateArgs } from './generate-args';

const ci: GenerateSetting = { apps: { all: ['shop', 'desk'], underApps: ['shop'] }, interactive: false };
const terminal: GenerateSetting = { ...ci, interactive: true };
const check = (line: string, setting = ci) => checkGenerateArgs(parseGenerateArgs(line.split(' ')), setting);

describe('parseGenerateArgs', () => {
  it.each([
    ['mcp-tool find-order --project shop --type high', { project: 'shop', type: 'high' }],
    ['mcp-tool find-order --project=shop --type=high', { project: 'shop', type: 'high' }],
    ['mcp-tool find-order -p shop', { project: 'shop' }],
    ['mcp-tool find-order -pshop', { project: 'shop' }],
    ['mcp-tool find-order --project --dry-run', { project: true }],
    ['--dry-run mcp-tool --spec-file-suffix test find-order', {}],
    ['mcp-tool find-order -c @nestjs/schematics', { collection: '@nestjs/schematics' }],
  ])('%s', (line, expected) => {
    expect(parseGenerateArgs(line.split(' '))).toEqual({ schematic: 'mcp-tool', name: 'find-order', ...expected });
  });
});

describe('checkGenerateArgs', () => {
  it('checks the name as typed, before the Nest CLI rewrites it', () => {
    expect(check('mcp-tool Bad_Name --project shop').refusal).toBe(
      'mcp-tool: invalid name "Bad_Name": use lower-case kebab-case like "find-order"',
    );
    expect(check('mcp-tool findOrder --project shop').refusal).toContain('invalid name "findOrder"');
    expect(check('mcp-tool --project shop').refusal).toContain('invalid name ""');
    expect(check('mcp-server Bad_Name --project Bad_Name').refusal).toBe(
      'mcp-server: invalid name "Bad_Name": use lower-case kebab-case like "orders"',
    );
  });

  it('refuses an unknown --type, listing the accepted values', () => {
    expect(check('mcp-tool find-order --project shop --type extreme').refusal).toBe(
      'mcp-tool: unknown --type "extreme": use readonly, low, medium, high or task',
    );
    expect(check('mcp-resource price-list --project shop --type stream').refusal).toBe(
      'mcp-resource: unknown --type "stream": use fixed or template',
    );
  });

  it('checks mcp-app like the other provider generators', () => {
    expect(check('mcp-app SalesBoard --project shop').refusal).toBe(
      'mcp-app: invalid name "SalesBoard": use lower-case kebab-case like "sales-dashboard"',
    );
    expect(check('mcp-app sales-board --project shop --type react').refusal).toBe(
      'mcp-app: unknown --type "react": it takes no --type',
    );
    expect(check('mcp-app sales-board --project nope').refusal).toBe(
      'mcp-app: unknown --project "nope": pass --project <app>; the apps under apps/ are: shop',
    );
    expect(check('mcp-app sales-board --project shop')).toEqual({ extra: [] });
  });

  it('checks mcp-downstream like the other provider generators', () => {
    expect(check('mcp-downstream AssetInventory --project shop').refusal).toBe(
      'mcp-downstream: invalid name "AssetInventory": use lower-case kebab-case like "asset-inventory"',
    );
    expect(check('mcp-downstream asset-inventory --project shop --type oauth').refusal).toBe(
      'mcp-downstream: unknown --type "oauth": it takes no --type',
    );
    expect(check(`mcp-downstream ${'a'.repeat(56)} --project shop`).refusal).toMatch(/of at most 55 characters$/);
    expect(check('mcp-downstream asset-inventory --project shop')).toEqual({ extra: [] });
  });

  it('without --project and without a terminal, names the apps instead of opening the picker', () => {
    const refusal = 'mcp-tool: pass --project <app>; the apps under apps/ are: shop';
    expect(check('mcp-tool find-order').refusal).toBe(refusal);
    expect(check('mcp-tool find-order --project').refusal).toBe(refusal);
    expect(check('service orders').refusal).toBe('service: pass --project <app>; the apps under apps/ are: shop');
    expect(check('mcp-tool find-order', { ...ci, apps: { all: [], underApps: [] } }).refusal).toBe(
      'mcp-tool: pass --project <app>; there is no app under apps/ yet: create one with npm run g -- mcp-server <name>',
    );
  });

  it('leaves the picker to a person at a terminal, and the app schematics (which never ask) alone', () => {
    expect(check('mcp-tool find-order', terminal)).toEqual({ extra: [] });
    expect(check('app admin')).toEqual({ extra: [] });
    expect(check('library shared')).toEqual({ extra: [] });
  });

  it('refuses a --project that is not an application', () => {
    expect(check('mcp-prompt daily-summary --project mcp').refusal).toBe(
      'mcp-prompt: unknown --project "mcp": pass --project <app>; the apps under apps/ are: shop',
    );
    expect(check('mcp-prompt daily-summary --project desk')).toEqual({ extra: [] });
  });

  it('gives mcp-server its own name as --project, or checks the one given', () => {
    expect(check('mcp-server orders')).toEqual({ extra: ['--project', 'orders'] });
    expect(check('mcp-server orders --project orders')).toEqual({ extra: [] });
    expect(check('mcp-server orders --project shop').refusal).toBe(
      'mcp-server: --project "shop" must repeat the name "orders"',
    );
  });

  it('accepts valid arguments unchanged', () => {
    expect(check('mcp-tool refund-order --project shop --type high')).toEqual({ extra: [] });
    expect(check('mcp-resource invoice -p shop --type template --dry-run')).toEqual({ extra: [] });
  });

  it('leaves another collection to its own rules', () => {
    expect(check('mcp-tool Bad_Name --project shop -c @nestjs/schematics')).toEqual({ extra: [] });
  });
});
