#!/usr/bin/env node
// The structure figures of docs/structure.md, measured afresh from the code: `node scripts/structure.mjs`.
// Imports between the first-level folders of libs/mcp/src (against the floors of test/layout/floors.json), the names
// `@app/mcp` exports, the longest files and functions, imports that reach into another library's insides, and comments
// that cite the standard without linking docs/compliance.md.
// Exits 1 when a figure passes its bound, so it can run in CI as well as by hand.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');
const SRC = join(ROOT, 'libs/mcp/src');
const BOUNDS = { twoWay: 0, up: 0, exported: 50, fileLines: 300, functionLines: 60, deep: 0 };

/** Every .ts file under `dir`, specs and test fixtures left out unless `withSpecs`. */
function sources(dir, withSpecs = false) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist') continue;
    if (statSync(path).isDirectory()) out.push(...sources(path, withSpecs));
    else if (/\.ts$/.test(name) && (withSpecs || !/\.(spec|e2e-spec)\.ts$|\.fixture\.ts$/.test(name))) out.push(path);
  }
  return out;
}

const code = (text) => text.replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '');
const importsOf = (text) => [...code(text).matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map(([, spec]) => spec);
const firstLevel = (file) => relative(SRC, file).split(sep)[0].replace(/\.ts$/, '');

// 1. Imports between first-level folders.
const floors = JSON.parse(readFileSync(join(ROOT, 'test/layout/floors.json'), 'utf8')).floors.map((f) => f.names);
const floorOf = (name) => floors.findIndex((names) => names.includes(name));
const edges = new Map();
for (const file of sources(SRC)) {
  const from = firstLevel(file);
  for (const spec of importsOf(readFileSync(file, 'utf8')).filter((s) => s.startsWith('.'))) {
    const to = firstLevel(resolve(dirname(file), spec));
    if (to !== from) edges.set(`${from} -> ${to}`, [...(edges.get(`${from} -> ${to}`) ?? []), relative(SRC, file)]);
  }
}
const twoWay = [...edges.keys()]
  .map((e) => e.split(' -> '))
  .filter(([a, b]) => a < b && edges.has(`${b} -> ${a}`))
  .map(([a, b]) => `${a} <-> ${b}`);
const up = [...edges.keys()].filter((e) => {
  const [a, b] = e.split(' -> ');
  return floorOf(a) < 0 || floorOf(b) > floorOf(a);
});

// 2. The public API: names exported by libs/mcp/src/index.ts.
const index = readFileSync(join(SRC, 'index.ts'), 'utf8').replace(/\/\/.*$/gm, '');
const exported = [
  ...[...index.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)].flatMap(([, names]) =>
    names
      .split(',')
      .map((n) =>
        n
          .trim()
          .split(/\s+as\s+/)
          .pop(),
      )
      .filter(Boolean),
  ),
  ...[...index.matchAll(/export\s+(?:const|class|function|interface|type|enum)\s+(\w+)/g)].map(([, n]) => n),
];

// 3. Long files and functions (a function: from its signature line to the line of its closing brace).
const libFiles = sources(join(ROOT, 'libs'), true);
const longFiles = libFiles
  .map((f) => [relative(ROOT, f), readFileSync(f, 'utf8').split('\n').length - 1])
  .filter(([, n]) => n > BOUNDS.fileLines);
// Top-level functions and arrow constants at column 0, methods at a class's indent (prettier's two spaces).
const SIGNATURE =
  /^(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:function\s*\*?\s*(\w+)|(?:const|let)\s+(\w+)\s*=\s*(?:async\s+)?(?:\(|\w+\s*=>))|^ {2}(?:(?:public|private|protected|static|readonly|async|override|get|set)\s+)*(\w+)\s*(?:<[^>]*>)?\s*\(/;
const KEYWORDS = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'await', 'new', 'super']);
const strip = (line) => line.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`|\/\/.*$/g, '');
const longFunctions = [];
for (const file of sources(SRC)) {
  const lines = readFileSync(file, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = SIGNATURE.exec(lines[i]);
    const name = m && (m[1] ?? m[2] ?? m[3]);
    if (!name || KEYWORDS.has(name)) continue;
    // The body opens on the first line that ends with `{` (a signature may span lines, and hold `{}` defaults).
    let open = i;
    while (open < lines.length && open < i + 12 && !/\{\s*$/.test(strip(lines[open]))) {
      if (/;\s*$/.test(strip(lines[open]))) break;
      open++;
    }
    if (open >= lines.length || !/\{\s*$/.test(strip(lines[open]))) continue;
    let depth = 0;
    let end = open;
    for (let j = open; j < lines.length; j++) {
      for (const ch of strip(lines[j])) depth += ch === '{' ? 1 : ch === '}' ? -1 : 0;
      if (depth <= 0) {
        end = j;
        break;
      }
    }
    const length = end - i + 1;
    if (length > BOUNDS.functionLines) longFunctions.push(`${relative(SRC, file)}:${i + 1} ${name} (${length})`);
  }
}

// 4. Imports into another library's insides: `@app/<lib>/<path>` that is not a declared entry point, or `../<lib>/src`.
const tsconfig = JSON.parse(readFileSync(join(ROOT, 'tsconfig.json'), 'utf8').replace(/\/\/.*$/gm, ''));
// `@app/<lib>` and, where a path maps `@app/<lib>/*` to `*.entry` files, each such file.
const paths = tsconfig.compilerOptions.paths ?? {};
const entryPoints = new Set(Object.keys(paths).filter((p) => !p.includes('*')));
for (const [alias, [target]] of Object.entries(paths).filter(([p]) => p.endsWith('/*'))) {
  const [dir, suffix] = target.split('*');
  for (const name of readdirSync(join(ROOT, dir)).filter((n) => n.endsWith(`${suffix}.ts`)))
    entryPoints.add(alias.replace('*', name.slice(0, -`${suffix}.ts`.length)));
}
const deep = [];
for (const file of [
  ...sources(join(ROOT, 'libs'), true),
  ...sources(join(ROOT, 'apps'), true),
  ...sources(join(ROOT, 'test'), true),
]) {
  const own = relative(ROOT, file).split(sep).slice(0, 2).join('/');
  for (const spec of importsOf(readFileSync(file, 'utf8'))) {
    const target = spec.startsWith('.') ? relative(ROOT, resolve(dirname(file), spec)) : undefined;
    const crossing = target?.startsWith('libs/') && !target.startsWith(own + '/') && own.startsWith('libs/');
    const outside = target?.startsWith('libs/') && !own.startsWith('libs/');
    if ((spec.startsWith('@app/') && !entryPoints.has(spec)) || crossing || outside)
      deep.push(`${relative(ROOT, file)}: ${spec}`);
  }
}

// 5. Comments that cite a section of the standard (`§9.3`; an RFC's sections aside) without linking docs/compliance.md.
const unlinked = [];
for (const file of sources(join(ROOT, 'libs'))) {
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/\/\*[\s\S]*?\*\/|(?:^[ \t]*\/\/.*\n?)+/gm)) {
    const cites = m[0].replace(/RFC \d+,? §[\d.]+/g, '').includes('§');
    if (cites && !m[0].includes('docs/compliance.md'))
      unlinked.push(`${relative(ROOT, file)}:${text.slice(0, m.index).split('\n').length}`);
  }
}

const figures = [
  ['folder pairs importing each other both ways', twoWay, BOUNDS.twoWay],
  ['imports running up the floors', up, BOUNDS.up],
  ['names exported from @app/mcp', exported, BOUNDS.exported],
  [`library files over ${BOUNDS.fileLines} lines`, longFiles.map(([f, n]) => `${f} (${n})`), 0],
  [`functions in libs/mcp/src over ${BOUNDS.functionLines} lines`, longFunctions, 0],
  ['imports into another library (not an entry point)', deep, BOUNDS.deep],
  ['comments citing the standard without a link to docs/compliance.md', unlinked, 0],
];
const files = sources(SRC);
const lines = files.reduce((n, f) => n + readFileSync(f, 'utf8').split('\n').length - 1, 0);
console.log(
  `libs/mcp/src: ${files.length} files, ${lines} lines, ${floors.length} floors, ${edges.size} folder imports`,
);
let over = 0;
for (const [label, list, bound] of figures) {
  const bad = list.length > bound;
  over += bad ? 1 : 0;
  console.log(`${bad ? 'OVER' : 'ok  '} ${String(list.length).padStart(4)}  ${label} (bound ${bound})`);
  if (bad || process.argv.includes('--list')) for (const item of list.slice(0, 40)) console.log(`         ${item}`);
}
process.exitCode = over ? 1 : 0;
