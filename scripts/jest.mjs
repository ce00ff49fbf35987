// `npm run jest -- [jest options] [paths]`: jest with the flag NestJS 12's ESM needs. The library's end-to-end
// suites start the fixture apps (test/fixtures/desk, conformance) from their build, so those are built first when
// missing or stale (one line each), unless every path asked for is an app's or a library's own specs.
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const paths = args.filter((a) => !a.startsWith('-'));
const ownSpecsOnly = paths.length > 0 && paths.every((p) => /^(\.\/)?(apps|libs)\//.test(p));
if (!ownSpecsOnly) {
  const fixtures = ['desk', 'conformance'];
  const built = spawnSync(process.execPath, [join(root, 'scripts/start.mjs'), '--build-only', ...fixtures], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const env = { ...process.env, NODE_OPTIONS: '--experimental-vm-modules --disable-warning=ExperimentalWarning' };
const jest = spawn(process.execPath, [join(root, 'node_modules/jest/bin/jest.js'), ...args], {
  cwd: root,
  env,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => jest.kill(signal));
jest.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
