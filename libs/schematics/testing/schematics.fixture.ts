/** What the generators' specs share: the compiled collection, a small workspace, its README and CHANGELOG. */
import { resolve } from 'node:path';
import { HostTree } from '@angular-devkit/schematics';
import { SchematicTestRunner, UnitTestTree } from '@angular-devkit/schematics/testing';

/** The compiled collection (the test command builds libs/schematics first, as `npm ci` does via prepare). */
export const runner = new SchematicTestRunner('@app/mcp-schematics', resolve(__dirname, '../collection.json'));
export const REPO = resolve(__dirname, '../../..');

/** A heading's anchor as Markdown renderers make it: lower case, punctuation dropped, spaces to hyphens. */
export const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');
export const headingSlugs = (markdown: string) => [...markdown.matchAll(/^#{1,6} (.+)$/gm)].map(([, h]) => slug(h));

export const APP_MODULE = `import { Module } from '@nestjs/common';
import { McpModule } from '@app/mcp';

@Module({
  imports: [McpModule.forRoot({ name: 'shop' })],
})
export class AppModule {}
`;

/** A monorepo with one app `shop` (service name and URI scheme `shop`) and one library `kit`. */
export function workspace(): UnitTestTree {
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

export const inShop = { sourceRoot: 'apps/shop/src', project: 'shop' };

/** The README section the prompt and resource generators fill (as `nest g mcp-server` writes it), plus `rows`. */
export function readmeWith(...rows: string[]): string {
  const table = [
    '| Prompt or resource | Kind | What it does |',
    '| --- | --- | --- |',
    '| `agent_brief` | prompt | Built in. |',
    ...rows,
  ];
  return `# shop\n\n## Prompts and resources\n\n${table.join('\n')}\n\n## Run\n`;
}

/** The workspace with the app's README and CHANGELOG, as `nest g mcp-server` writes them. */
export function withAppDocs(): UnitTestTree {
  const tree = workspace();
  tree.create('apps/shop/README.md', readmeWith());
  tree.create('apps/shop/CHANGELOG.md', '# Changelog\n\n## [Unreleased]\n\n## [0.1.0]\n');
  return tree;
}

/** Runs a schematic that must refuse: the one-line message, and not one file written or changed. */
export async function expectRefusal(schematic: string, options: object, message: string): Promise<void> {
  const tree = workspace();
  const before = new Map(tree.files.map((f) => [f, tree.readContent(f)]));
  const refused = runner.runSchematic(schematic, options, tree);
  // The whole message, exactly: one line, nothing appended.
  await expect(refused).rejects.toMatchObject({ message });
  expect(message).not.toContain('\n');
  expect(new Map(tree.files.map((f) => [f, tree.readContent(f)]))).toEqual(before);
}
