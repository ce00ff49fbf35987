// `npm start [-- <app>]`, `npm run start:dev [-- <app>]`, `npm run -s start:stdio [-- <app>]`, `npm run build [--
// <app> …]`.
// Builds an application project of nest-cli.json when something it reads changed, and runs it on this Node (the
// project's Node 24 under npm). Build output goes to stderr, so that over stdio stdout carries MCP messages only.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fingerprint, upToDate, writeStamp } from './lib/build-stamp.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const flags = new Set(process.argv.slice(2).filter((a) => a.startsWith('--')));
const names = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const known = ['--stdio', '--watch', '--build-only'];
const unknownFlag = [...flags].find((f) => !known.includes(f));
if (unknownFlag || (names.length > 1 && !flags.has('--build-only'))) {
  fail(`usage: scripts/start.mjs [--stdio] [--watch] [app] | scripts/start.mjs --build-only [app …]`);
}

const cli = JSON.parse(readFileSync(join(root, 'nest-cli.json'), 'utf8'));
// The servers a team runs: fixtures under test/ can be built and started by name but are not offered.
const apps = Object.keys(cli.projects ?? {}).filter((n) => cli.projects[n].root?.startsWith('apps/'));
const isApplication = (n) => cli.projects?.[n]?.type === 'application';
const fallback = Object.keys(cli.projects ?? {}).find((n) => isApplication(n) && cli.projects[n].root === cli.root);
const targets = names.length > 0 ? names : [fallback ?? (apps.length === 1 ? apps[0] : undefined)];
if (!targets[0]) fail(`no default app in nest-cli.json; name one: ${apps.join(', ')}`);
for (const name of targets) {
  if (!isApplication(name)) fail(`unknown app "${name}"; the apps under apps/ are: ${apps.join(', ') || 'none'}`);
}

const nest = join(root, 'node_modules/.bin/nest');
const [name] = targets;
if (flags.has('--watch')) {
  // Nest's own watch mode: recompiles on change and restarts the server.
  const child = spawn(nest, ['start', name, '--watch'], { cwd: root, stdio: 'inherit' });
  forwardSignals(child);
} else {
  for (const target of targets) buildIfChanged(target);
  if (!flags.has('--build-only')) {
    const child = spawn(process.execPath, [entryOf(name), ...(flags.has('--stdio') ? ['--stdio'] : [])], {
      cwd: root,
      stdio: 'inherit',
    });
    forwardSignals(child);
  }
}

/**
 * `nest build <app>` unless nothing it reads changed since its last build (see lib/build-stamp.mjs). The build is
 * incremental (the app's tsconfig sets `incremental`) and never empties the output folder (`deleteOutDir: false`
 * in nest-cli.json), so a replica already running from it keeps its files.
 */
function buildIfChanged(app) {
  const project = cli.projects[app];
  const stamp = join(outDirOf(app), '.mcp-build-stamp');
  const inputs = [project.root, 'libs', 'tsconfig.json', 'nest-cli.json', 'package-lock.json', tsconfigOf(app)];
  const print = fingerprint(root, inputs);
  if (upToDate(stamp, print, [entryOf(app)])) {
    process.stderr.write(`${app}: build up to date (nothing changed since the last one)\n`);
    return;
  }
  const built = spawnSync(nest, ['build', app], { cwd: root, stdio: ['ignore', process.stderr, process.stderr] });
  if (built.status !== 0) fail(`build of "${app}" failed (see above)`, built.status ?? 1);
  writeStamp(stamp, print);
}

function tsconfigOf(app) {
  return cli.projects[app].compilerOptions?.tsConfigPath ?? cli.compilerOptions.tsConfigPath;
}

function outDirOf(app) {
  const tsconfigPath = join(root, tsconfigOf(app));
  return join(dirname(tsconfigPath), JSON.parse(readFileSync(tsconfigPath, 'utf8')).compilerOptions.outDir);
}

/** The compiled entry: the project's outDir (from its tsconfig) + its entryFile, as `nest build` writes it. */
function entryOf(app) {
  return join(outDirOf(app), `${cli.projects[app].entryFile}.js`);
}

/** The server handles SIGTERM/SIGINT itself (drain, close); this wrapper passes them on and exits as it does. */
function forwardSignals(child) {
  for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

function fail(message, code = 2) {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}
