// MCP Apps views (docs/apps.md#building-a-view): every folder `<project root>/views/<name>/` holding `index.html` and
// `main.ts` becomes one self-contained HTML document, `<outDir>/<project root>/views/<name>.html`, beside the
// compiled app: esbuild bundles main.ts with everything it imports (the official App class, CSS) and the bundle is
// inlined where index.html loads it. Nothing is fetched at run time: a host renders the view from that one document.
// A view is bundled again only when a file it read (its inputs, as esbuild reports them) or package-lock.json changed.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The one script tag index.html must hold: the bundle replaces it. */
const ENTRY_TAG = /<script\b[^>]*\bsrc=["']\.\/main\.ts["'][^>]*>\s*<\/script>/i;
/** Any other file index.html would load from its own folder: a host has only the one document, so it is refused. */
const LOCAL_REFERENCE = /\b(?:src|href)=["'](?!https?:|data:|#|mailto:)([^"']+)["']/gi;

/** The view folders of one project: `views/<name>/` with an index.html. */
export function viewSources(root, projectRoot) {
  const folder = join(root, projectRoot, 'views');
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(folder, entry.name, 'index.html')))
    .map((entry) => ({ name: entry.name, dir: join(folder, entry.name) }));
}

/**
 * Bundles each view of the project into `outDir/views/<name>.html`, skipping those whose inputs did not change.
 * Returns one line per view for the build log; throws an Error naming the view and the rule it broke.
 */
export async function buildViews(root, projectRoot, outDir) {
  const sources = viewSources(root, projectRoot);
  if (sources.length === 0) return [];
  const target = join(outDir, 'views');
  mkdirSync(target, { recursive: true });
  const lines = [];
  for (const view of sources) lines.push(await buildView(root, view, target));
  return lines;
}

async function buildView(root, view, target) {
  const output = join(target, `${view.name}.html`);
  const stampFile = `${output}.stamp`;
  const label = relative(root, view.dir);
  if (upToDate(root, stampFile, output)) return `view ${label}: up to date`;
  const html = readFileSync(join(view.dir, 'index.html'), 'utf8');
  if (!ENTRY_TAG.test(html))
    throw new Error(`view ${label}: index.html must load its script as <script type="module" src="./main.ts">`);
  const stray = [...html.replace(ENTRY_TAG, '').matchAll(LOCAL_REFERENCE)].map((m) => m[1]);
  if (stray.length)
    throw new Error(
      `view ${label}: index.html loads ${stray.join(', ')} from its folder; a view is one document: import CSS and ` +
        'modules from main.ts instead (they are bundled into it)',
    );
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [join(view.dir, 'main.ts')],
    absWorkingDir: root,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    outdir: target,
    metafile: true,
    logLevel: 'silent',
  }).catch((error) => {
    throw new Error(`view ${label}: ${error.message}`);
  });
  const text = (ext) => result.outputFiles.find((f) => f.path.endsWith(ext))?.text ?? '';
  // `</script` inside the bundle would end the inline script early; `<\/script` means the same in JavaScript.
  const script = text('.js').replace(/<\/(script)/gi, '<\\/$1');
  const style = text('.css');
  let document = html.replace(ENTRY_TAG, () => `<script type="module">${script}</script>`);
  if (style) document = document.replace(/<\/head>/i, () => `<style>${style}</style></head>`);
  writeFileSync(output, document);
  const inputs = Object.keys(result.metafile.inputs).filter((path) => !path.includes('node_modules/'));
  writeStamp(root, stampFile, [...inputs, relative(root, join(view.dir, 'index.html'))]);
  return `view ${label}: bundled into ${relative(root, output)} (${Math.round(document.length / 1024)} KiB)`;
}

/** The stamp lists the view's own inputs (relative to root) and their fingerprint, package-lock.json included. */
function writeStamp(root, stampFile, inputs) {
  const files = [...new Set(inputs)].sort();
  writeFileSync(stampFile, JSON.stringify({ files, print: print(root, files) }));
}

function upToDate(root, stampFile, output) {
  if (!existsSync(output) || !existsSync(stampFile)) return false;
  try {
    const { files, print: recorded } = JSON.parse(readFileSync(stampFile, 'utf8'));
    return print(root, files) === recorded;
  } catch {
    return false;
  }
}

function print(root, files) {
  const hash = createHash('sha256');
  for (const file of [...files, 'package-lock.json']) {
    const path = join(root, file);
    if (!existsSync(path)) hash.update(`missing ${file}\n`);
    else hash.update(`${file} ${statSync(path).size} ${statSync(path).mtimeMs}\n`);
  }
  return hash.digest('hex');
}
