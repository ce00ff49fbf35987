import { parse } from 'yaml';
import { APP_MODULE, expectRefusal, inShop, runner, withAppDocs, workspace } from '../../testing/schematics.fixture';

const SKILL = '/apps/shop/skills/refund-order/SKILL.md';

describe('mcp-skill', () => {
  it('writes apps/<app>/skills/<name>/SKILL.md: its name, and TODO: sentences for the rest', async () => {
    const tree = await runner.runSchematic('mcp-skill', { name: 'refund-order', ...inShop }, workspace());
    const text = tree.readContent(SKILL);
    // The frontmatter as the boot reads it: YAML between the first two `---` lines.
    expect(text.startsWith('---\n')).toBe(true);
    expect(parse(text.split(/^---$/m)[1])).toEqual({
      name: 'refund-order',
      description: 'TODO: say what this skill teaches an agent and when to use it, in one or two sentences.',
    });
    expect(text).toContain('# Refund order\n');
    expect(text.split('\n').filter((l) => l.includes('TODO:')).length).toBeGreaterThanOrEqual(4);
    expect(tree.files.filter((f) => f.startsWith('/apps/shop/src/'))).toEqual(['/apps/shop/src/app.module.ts']);
  });

  it("wires the app's McpModule.forRoot to serve skills/ and nest-cli.json to copy it, once", async () => {
    const once = await runner.runSchematic('mcp-skill', { name: 'refund-order', ...inShop }, workspace());
    const module = once.readContent('/apps/shop/src/app.module.ts');
    expect(module).toContain("McpModule.forRoot({ name: 'shop', skills: { root: `${__dirname}/../skills` } })");
    const assets = () =>
      (JSON.parse(once.readContent('/nest-cli.json')) as { projects: Record<string, { compilerOptions?: object }> })
        .projects.shop.compilerOptions;
    expect(assets()).toEqual({ assets: ['../skills/**/*'] });
    const twice = await runner.runSchematic('mcp-skill', { name: 'close-ticket', ...inShop }, once);
    expect(twice.readContent('/apps/shop/src/app.module.ts')).toBe(module);
    expect(assets()).toEqual({ assets: ['../skills/**/*'] });
    expect(twice.files).toContain('/apps/shop/skills/close-ticket/SKILL.md');
  });

  it('wires a multi-line forRoot right after its name', async () => {
    const tree = workspace();
    tree.overwrite(
      '/apps/shop/src/app.module.ts',
      APP_MODULE.replace(
        "McpModule.forRoot({ name: 'shop' })",
        "McpModule.forRoot({\n  name: 'shop',\n  title: 'Shop',\n})",
      ),
    );
    const out = await runner.runSchematic('mcp-skill', { name: 'refund-order', ...inShop }, tree);
    expect(out.readContent('/apps/shop/src/app.module.ts')).toMatch(
      /name: 'shop',\n\s+skills: \{ root: `\$\{__dirname\}\/\.\.\/skills` \},\n\s+title: 'Shop',/,
    );
  });

  it('notes the skill in the CHANGELOG with a TODO:', async () => {
    const out = await runner.runSchematic('mcp-skill', { name: 'refund-order', ...inShop }, withAppDocs());
    expect(out.readContent('/apps/shop/CHANGELOG.md')).toContain(
      '### Added\n- Skill `refund-order`: TODO: say what it teaches.\n',
    );
  });

  it('refuses a skill that already exists, writing nothing', async () => {
    const tree = workspace();
    tree.create(SKILL, '---\nname: refund-order\ndescription: Refunds.\n---\n');
    await expect(runner.runSchematic('mcp-skill', { name: 'refund-order', ...inShop }, tree)).rejects.toMatchObject({
      message:
        'mcp-skill: apps/shop/skills/refund-order/SKILL.md already exists: choose another name or delete it first',
    });
  });

  it.each([
    [
      { name: 'Refund_Order' },
      'mcp-skill: invalid name "Refund_Order": use lower-case kebab-case like "triage-ticket"',
    ],
    [
      { name: 'refund--order' },
      'mcp-skill: invalid name "refund--order": use lower-case kebab-case like "triage-ticket"',
    ],
    [
      { name: `a${'-b'.repeat(32)}` },
      `mcp-skill: invalid name "a${'-b'.repeat(32)}": use lower-case kebab-case like "triage-ticket" of at most 64 characters`,
    ],
    [{ name: 'x', type: 'template' }, 'mcp-skill: unknown --type "template": it takes no --type'],
    [
      { name: 'x', project: 'nowhere', sourceRoot: undefined },
      'mcp-skill: unknown --project "nowhere": pass --project <app>; the apps under apps/ are: shop',
    ],
  ])('%j is refused, writing nothing', async (opts, message) => {
    await expectRefusal('mcp-skill', { ...inShop, ...opts }, message);
  });
});
