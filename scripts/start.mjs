// `npm start [-- <app>]`, `npm run start:dev [-- <app>]`, `npm run -s start:stdio [-- <app>]`, `npm run build [--
// <app> …]`.
// Builds an application project of nest-cli.json when something it reads changed, and runs it on this Node (the
// project's Node 24 under npm). Build output goes to stderr, so that over stdio stdout carries MCP messages only.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fingerprint, upToDate, writeStamp } from './lib/build-stamp.mjs';
import { NODE_FLAGS } from './lib/node-flags.mjs';
import { buildViews } from './lib/build-views.mjs';
import {
  appsUnderApps,
  buildSettingsOf,
  defaultApp,
  entryOf,
  isApplication,
  outDirOf,
  readCli,
  tsconfigOf,
} from './lib/projects.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const flags = new Set(process.argv.slice(2).filter((a) => a.startsWith('--')));
const names = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const known = ['--stdio', '--watch', '--build-only'];
const unknownFlag = [...flags].find((f) => !known.includes(f));
if (unknownFlag || (names.length > 1 && !flags.has('--build-only'))) {
  fail(`usage: scripts/start.mjs [--stdio] [--watch] [app] | scripts/start.mjs --build-only [app …]`);
}

const cli = readCli(root);
// Fixtures under test/ can be built and started by name but are not offered.
const apps = appsUnderApps(cli);
const targets = names.length > 0 ? names : [defaultApp(cli) ?? (apps.length === 1 ? apps[0] : undefined)];
if (!targets[0]) fail(`no default app in nest-cli.json; name one: ${apps.join(', ')}`);
for (const name of targets) {
  if (!isApplication(cli, name)) fail(`unknown app "${name}"; the apps under apps/ are: ${apps.join(', ') || 'none'}`);
}

const nest = join(root, 'node_modules/.bin/nest');
const [name] = targets;
// SIGINT/SIGTERM, from a terminal or sent to `npm start`'s own process id (npm passes them on to this script, which
// its package.json line runs with `exec` so that no shell sits in between): passed to the build or the server
// running now, and this script exits as it does; with neither running, it exits at once.
let running;
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => (running ? running.kill(signal) : process.exit(signal === 'SIGINT' ? 130 : 143)));
}
if (flags.has('--watch')) {
  // Nest's own watch mode: recompiles on change and restarts the server. Views are bundled once before it.
  await bundleViews(name);
  exitWith(spawn(nest, ['start', name, '--watch'], { cwd: root, stdio: 'inherit' }));
} else {
  for (const target of targets) await buildIfChanged(target);
  if (!flags.has('--build-only')) {
    // The image's Node flags (lib/node-flags.mjs), so that a server started here runs as it does in a container.
    const args = [...NODE_FLAGS, entryOf(root, cli, name), ...(flags.has('--stdio') ? ['--stdio'] : [])];
    exitWith(spawn(process.execPath, args, { cwd: root, stdio: 'inherit' }));
  }
}

/**
 * `nest build <app>` unless nothing it reads changed since its last build (see lib/build-stamp.mjs). The build is
 * incremental (the app's tsconfig sets `incremental`) and never empties the output folder (`deleteOutDir: false`
 * in nest-cli.json), so a replica already running from it keeps its files. Of nest-cli.json only what builds this app
 * counts (lib/projects.mjs buildSettingsOf): generating or removing another app does not rebuild this one.
 */
async function buildIfChanged(app) {
  const project = cli.projects[app];
  const stamp = join(outDirOf(root, cli, app), '.mcp-build-stamp');
  const inputs = [project.root, 'libs', 'tsconfig.json', 'package-lock.json', tsconfigOf(cli, app)];
  const print = fingerprint(root, inputs, buildSettingsOf(cli, app));
  if (upToDate(stamp, print, [entryOf(root, cli, app)])) {
    process.stderr.write(`${app}: build up to date (nothing changed since the last one)\n`);
    return bundleViews(app);
  }
  process.stderr.write(`${app}: building (something it reads changed since the last build)…\n`);
  // Asynchronous, so that a signal reaches the build (and this script) while it runs.
  running = spawn(nest, ['build', app], { cwd: root, stdio: ['ignore', process.stderr, process.stderr] });
  const [code, signal] = await new Promise((done) => running.on('exit', (...result) => done(result)));
  running = undefined;
  if (signal) process.exit(128 + (constants.signals[signal] ?? 1));
  if (code !== 0) fail(`build of "${app}" failed (see above)`, code ?? 1);
  writeStamp(stamp, print);
  await bundleViews(app);
}

/** The app's MCP Apps views (`<app root>/views/<name>/`), each bundled into one HTML document when it changed. */
async function bundleViews(app) {
  try {
    const projectRoot = cli.projects[app].root;
    const lines = await buildViews(root, projectRoot, join(outDirOf(root, cli, app), projectRoot));
    for (const line of lines) process.stderr.write(`${app}: ${line}\n`);
  } catch (error) {
    fail(`build of "${app}" failed: ${error.message}`, 1);
  }
}

/** The server handles SIGTERM/SIGINT itself (drain, close); this wrapper passes them on and exits as it does. */
function exitWith(child) {
  running = child;
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

function fail(message, code = 2) {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}
