import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { runner, REPO, slug, headingSlugs, workspace, expectRefusal } from '../../testing/schematics.fixture';

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
      "server = await startMcpTestServer(AppModule, { env, adapter: 'fastify' });",
    );
    expect(tree.readContent('/apps/new-server/README.md')).toContain("on Nest's Fastify adapter");
    const express = await runner.runSchematic('mcp-server', { name: 'new-server', type: 'express' }, workspace());
    expect(express.readContent('/apps/new-server/src/main.ts')).not.toContain('adapter');
    const e2e = express.readContent('/apps/new-server/test/new-server.e2e-spec.ts');
    expect(e2e).toContain('server = await startMcpTestServer(AppModule, { env });');
    // Booted from its sources, the app gets its views (none yet, `nest g mcp-app` adds them) bundled as a build does.
    expect(e2e).toContain("await buildViews(resolve(__dirname, '../../..'), 'apps/new-server', built);");
    expect(e2e).toContain("const env = { MCP_VIEWS_DIR: join(built, 'views') };");
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
