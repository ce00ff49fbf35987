// `npm run jest -- [jest options] [paths]`: jest with the flag NestJS 12's ESM needs. The library's end-to-end
// suites start the fixture apps (test/fixtures/desk, conformance) from their build, so those are built first when
// missing or stale (one line each): every fixture for a whole run, else only those the selected suites run from
// their build (scripts/lib/fixtures-needed.mjs; none for an app's or a library's own specs).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixtureBuilds, fixturesNeeded } from './lib/fixtures-needed.mjs';
import { readCli } from './lib/projects.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const { paths, projects } = splitArgs(args);
// The unit project and apps' or libraries' own specs start no fixture.
const ownSpecsOnly =
  (projects.length > 0 && projects.every((p) => p === 'unit')) ||
  (paths.length > 0 && paths.every((p) => /^(\.\/)?(apps|libs)\//.test(p)));
// Node's compile cache (bytecode of the modules a process loads, checked against their content) for jest and every
// server, CLI and build the suites start: a fixture server boots on about 15 % less CPU once a first one has run.
const env = {
  ...process.env,
  NODE_OPTIONS: '--experimental-vm-modules --disable-warning=ExperimentalWarning',
  NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? join(tmpdir(), 'node-compile-cache'),
};
const jestBin = join(root, 'node_modules/jest/bin/jest.js');
if (!ownSpecsOnly) {
  const fixtures = paths.length === 0 ? fixtureBuilds(root, readCli(root)).map((f) => f.name) : fixturesOf(args);
  if (fixtures.length > 0) {
    const built = spawnSync(process.execPath, [join(root, 'scripts/start.mjs'), '--build-only', ...fixtures], {
      cwd: root,
      env: { ...process.env, NODE_COMPILE_CACHE: env.NODE_COMPILE_CACHE },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (built.status !== 0) process.exit(built.status ?? 1);
  }
}

/** The fixtures the suites these jest arguments select need; every fixture when jest cannot list them. */
function fixturesOf(jestArgs) {
  const cli = readCli(root);
  // Paths that are folders or files here: their specs, read from disk (no jest start-up to list them).
  if (paths.every((p) => existsSync(resolve(root, p)))) return fixturesNeeded(root, cli, paths.flatMap(specsUnder));
  const listed = spawnSync(process.execPath, [jestBin, '--listTests', ...jestArgs], {
    cwd: root,
    env,
    encoding: 'utf8',
  });
  if (listed.status !== 0) return fixtureBuilds(root, cli).map((f) => f.name);
  const suites = listed.stdout.split('\n').filter((line) => line.startsWith('/'));
  return fixturesNeeded(root, cli, suites);
}

/** jest's path patterns and `--selectProjects` names among its arguments (the values of a few options left out). */
function splitArgs(all) {
  const takesValue = new Set(['-t', '--testNamePattern', '-c', '--config', '--outputFile', '--shard', '--reporters']);
  const paths = [];
  const projects = [];
  for (let i = 0; i < all.length; i++) {
    if (all[i] === '--selectProjects') {
      while (i + 1 < all.length && !all[i + 1].startsWith('-')) projects.push(all[++i]);
    } else if (takesValue.has(all[i])) i++;
    else if (!all[i].startsWith('-')) paths.push(all[i]);
  }
  return { paths, projects };
}

function specsUnder(path) {
  const full = resolve(root, path);
  if (!statSync(full).isDirectory()) return [full];
  return readdirSync(full, { recursive: true })
    .filter((file) => /[.-]spec\.ts$/.test(file) && !/(^|\/)(node_modules|dist)\//.test(file))
    .map((file) => join(full, file));
}

const jest = spawn(process.execPath, [jestBin, ...args], {
  cwd: root,
  env,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => jest.kill(signal));
jest.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
