import { runner, inShop, workspace, readmeWith, withAppDocs, expectRefusal } from '../../testing/schematics.fixture';

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
