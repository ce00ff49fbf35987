// Which fixture apps (nest-cli.json's application projects under test/fixtures/) a set of jest suites runs from their
// build: a suite needs one when it, or a file it imports by a relative path (test/support/…, transitively), names that
// fixture's build folder (`dist/fixtures/desk/…`). `npm run jest -- <folder>` builds only those (scripts/jest.mjs).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { isApplication, outDirOf } from './projects.mjs';

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;
const EXTENSIONS = ['', '.ts', '.js', '.mjs', '.cjs', '/index.ts', '/index.js'];

/** The fixture projects with the folder each one's build goes to, relative to the root (`dist/fixtures/desk`). */
export function fixtureBuilds(root, cli) {
  return Object.keys(cli.projects ?? {})
    .filter((name) => isApplication(cli, name) && cli.projects[name].root.startsWith('test/fixtures/'))
    .map((name) => ({
      name,
      outDir: relative(root, outDirOf(root, cli, name))
        .split('\\')
        .join('/'),
    }));
}

/** The fixtures (names, in nest-cli.json's order) that `suites` (absolute paths) or what they import run from dist/. */
export function fixturesNeeded(root, cli, suites) {
  const fixtures = fixtureBuilds(root, cli);
  const needed = new Set();
  const seen = new Set();
  const queue = [...suites];
  while (queue.length > 0 && needed.size < fixtures.length) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const { name, outDir } of fixtures) if (source.includes(outDir)) needed.add(name);
    for (const [, specifier] of source.matchAll(IMPORT)) {
      const target = resolveImport(dirname(file), specifier);
      if (target && !target.includes('/node_modules/')) queue.push(target);
    }
  }
  return fixtures.map((f) => f.name).filter((name) => needed.has(name));
}

function resolveImport(from, specifier) {
  for (const extension of EXTENSIONS) {
    const candidate = resolve(from, specifier + extension);
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}
