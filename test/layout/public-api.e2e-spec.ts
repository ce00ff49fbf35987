import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import * as ts from 'typescript';

/**
 * The public API stays one a team can learn: `@app/mcp` exports at most 50 names (providers, module, bootstrap,
 * errors, testing hooks), and every other entry point (`@app/mcp/<name>`, a libs/mcp/src/<name>.entry.ts) is listed
 * in docs/authoring.md with what it is for. ESLint refuses imports that bypass them (eslint.config.mjs).
 */
const ROOT = resolve(__dirname, '../..');
const SRC = resolve(ROOT, 'libs/mcp/src');

/** The names a barrel file exports (`export { a, b } from '...'` only: the entry points use nothing else). */
function exportedNames(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const stars = source.statements.filter((s) => ts.isExportDeclaration(s) && !s.exportClause);
  expect(stars).toHaveLength(0);
  return source.statements.flatMap((s) =>
    ts.isExportDeclaration(s) && s.exportClause && ts.isNamedExports(s.exportClause)
      ? s.exportClause.elements.map((e) => e.name.text)
      : [],
  );
}

const entryPoints = readdirSync(SRC)
  .filter((file) => file.endsWith('.entry.ts'))
  .map((file) => file.slice(0, -'.entry.ts'.length));

describe('the public API of libs/mcp', () => {
  it('@app/mcp exports at most 50 names, named exports only', () => {
    const names = exportedNames(resolve(SRC, 'index.ts'));
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBeLessThanOrEqual(50);
  });

  it('every entry point is documented in docs/authoring.md, and every documented one exists', () => {
    const guide = readFileSync(resolve(ROOT, 'docs/authoring.md'), 'utf8');
    const section = guide.slice(guide.indexOf('### Entry points'));
    const documented = [...section.matchAll(/^\| `@app\/mcp\/([a-z-]+)` \|/gm)].map(([, name]) => name);
    expect(documented.sort()).toEqual([...entryPoints].sort());
  });

  it('no name is exported by two entry points (one place to import each from)', () => {
    const owners = new Map<string, string>();
    const twice: string[] = [];
    for (const file of ['index', ...entryPoints.map((name) => `${name}.entry`)]) {
      for (const name of exportedNames(resolve(SRC, `${file}.ts`))) {
        if (owners.has(name)) twice.push(`${name}: ${owners.get(name)} and ${file}`);
        owners.set(name, file);
      }
    }
    expect(twice).toEqual([]);
  });
});
