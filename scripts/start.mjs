// `npm start [-- <app>]`, `npm run start:dev [-- <app>]`, `npm run -s start:stdio [-- <app>]`, `npm run build [--
// <app>]`.
// Builds one application project of nest-cli.json and runs it on this Node (the project's Node 24 under npm).
// Build output goes to stderr, so that over stdio the process's stdout carries MCP messages only.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const flags = new Set(process.argv.slice(2).filter((a) => a.startsWith('--')));
const names = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const known = ['--stdio', '--watch', '--build-only'];
const unknownFlag = [...flags].find((f) => !known.includes(f));
if (unknownFlag || names.length > 1) fail(`usage: scripts/start.mjs [${known.join('] [')}] [app]`);

const cli = JSON.parse(readFileSync(join(root, 'nest-cli.json'), 'utf8'));
const apps = Object.entries(cli.projects ?? {}).filter(([, p]) => p.type === 'application');
const fallback = apps.find(([, p]) => p.root === cli.root)?.[0] ?? (apps.length === 1 ? apps[0][0] : undefined);
const name = names[0] ?? fallback;
if (!name) fail(`no default app in nest-cli.json; name one: ${apps.map(([n]) => n).join(', ')}`);
const project = cli.projects[name];
if (!project || project.type !== 'application') {
  fail(`unknown app "${name}"; the applications in nest-cli.json are: ${apps.map(([n]) => n).join(', ')}`);
}

const nest = join(root, 'node_modules/.bin/nest');
if (flags.has('--watch')) {
  // Nest's own watch mode: recompiles on change and restarts the server.
  const child = spawn(nest, ['start', name, '--watch'], { cwd: root, stdio: 'inherit' });
  forwardSignals(child);
} else {
  const built = spawnSync(nest, ['build', name], { cwd: root, stdio: ['ignore', process.stderr, process.stderr] });
  if (built.status !== 0) fail(`build of "${name}" failed (see above)`, built.status ?? 1);
  if (!flags.has('--build-only')) {
    const child = spawn(process.execPath, [entryOf(project), ...(flags.has('--stdio') ? ['--stdio'] : [])], {
      cwd: root,
      stdio: 'inherit',
    });
    forwardSignals(child);
  }
}

/** The compiled entry: the project's outDir (from its tsconfig) + its entryFile, as `nest build` writes it. */
function entryOf(p) {
  const tsconfigPath = join(root, p.compilerOptions?.tsConfigPath ?? cli.compilerOptions.tsConfigPath);
  const outDir = JSON.parse(readFileSync(tsconfigPath, 'utf8')).compilerOptions.outDir;
  return join(dirname(tsconfigPath), outDir, `${p.entryFile}.js`);
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
