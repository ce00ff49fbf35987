// `node scripts/tool.mjs <contract|compliance|generate> [args…]`: the repository's own tools (`npm run contract`,
// `contract:check`, `compliance`, `g`), each built only when something it reads changed since its last build, then
// run with the arguments given. `node scripts/tool.mjs --build-only <tool>` builds it (when needed) and stops.
//
// Why: building a tool costs 3 to 6 CPU seconds even when nothing changed (tsc loads every declaration file before it
// can tell), and a team runs `npm run g` and the contract gate many times a day; a fingerprint of the inputs
// (lib/build-stamp.mjs, as `npm start` does for apps) answers in milliseconds.
import { spawn, spawnSync } from 'node:child_process';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fingerprint, upToDate, writeStamp } from './lib/build-stamp.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules/.bin', name);

/**
 * Each tool: how it is built (nest build for those importing another lib, whose compiler rewrites the `@app/*`
 * imports; plain tsc for the schematics), what it reads (every lib: a tool may import any of them), its program.
 */
const TOOLS = {
  contract: {
    build: [bin('nest'), ['build', '-p', 'libs/contract/tsconfig.json']],
    output: 'dist/tools/contract',
    program: 'dist/tools/contract/contract/src/contract.cli.js',
  },
  compliance: {
    build: [bin('nest'), ['build', '-p', 'libs/compliance/tsconfig.json']],
    output: 'dist/tools/compliance',
    program: 'dist/tools/compliance/compliance/src/compliance.cli.js',
  },
  generate: {
    build: [bin('tsc'), ['-p', 'libs/schematics/tsconfig.json']],
    output: 'libs/schematics/dist',
    program: 'libs/schematics/dist/cli/generate.cli.js',
  },
};
const INPUTS = ['libs', 'tsconfig.json', 'package-lock.json'];

const args = process.argv.slice(2);
const buildOnly = args[0] === '--build-only';
if (buildOnly) args.shift();
const [name, ...rest] = args;
const tool = TOOLS[name];
if (!tool) {
  process.stderr.write(`usage: node scripts/tool.mjs [--build-only] <${Object.keys(TOOLS).join('|')}> [args…]\n`);
  process.exit(2);
}

const stamp = join(root, tool.output, '.mcp-build-stamp');
const print = fingerprint(root, INPUTS);
if (!upToDate(stamp, print, [join(root, tool.program)])) {
  // On stderr: what a tool prints on stdout (a report, `contract OK`) stays its own.
  const [command, options] = tool.build;
  const built = spawnSync(command, options, { cwd: root, stdio: ['ignore', process.stderr, process.stderr] });
  if (built.status !== 0) {
    process.stderr.write(`the ${name} tool did not build (see above)\n`);
    process.exit(built.status ?? 1);
  }
  writeStamp(stamp, print);
}
if (buildOnly) process.exit(0);

const child = spawn(process.execPath, [join(root, tool.program), ...rest], { stdio: 'inherit' });
// A signal from the terminal reaches the tool too (same process group); one sent to this process is passed on.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(signal ? 128 + (constants.signals[signal] ?? 1) : (code ?? 1)));
