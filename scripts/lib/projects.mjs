// The projects of nest-cli.json as the scripts need them: which are a team's apps, and where a build puts them.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export function readCli(root) {
  return JSON.parse(readFileSync(join(root, 'nest-cli.json'), 'utf8'));
}

/** The app `npm start` runs when none is named: the project at nest-cli.json's `root`. */
export function defaultApp(cli) {
  return Object.keys(cli.projects ?? {}).find((n) => isApplication(cli, n) && cli.projects[n].root === cli.root);
}

export function isApplication(cli, name) {
  return cli.projects?.[name]?.type === 'application';
}

/** The servers a team runs: application projects under apps/ (fixtures under test/ are not offered). */
export function appsUnderApps(cli) {
  return Object.keys(cli.projects ?? {}).filter(
    (n) => isApplication(cli, n) && cli.projects[n].root.startsWith('apps/'),
  );
}

export function tsconfigOf(cli, name) {
  return cli.projects[name].compilerOptions?.tsConfigPath ?? cli.compilerOptions.tsConfigPath;
}

/** The project's build folder: its tsconfig's outDir. */
export function outDirOf(root, cli, name) {
  const tsconfigPath = join(root, tsconfigOf(cli, name));
  return join(dirname(tsconfigPath), JSON.parse(readFileSync(tsconfigPath, 'utf8')).compilerOptions.outDir);
}

/** The compiled entry: the project's outDir + its entryFile, as `nest build` writes it. */
export function entryOf(root, cli, name) {
  return join(outDirOf(root, cli, name), `${cli.projects[name].entryFile}.js`);
}

/**
 * What nest-cli.json says about building `name`, as a text to fingerprint: the shared settings, the project itself
 * and the libraries, but not the other applications, nor the default app (`root`, `sourceRoot`, the shared
 * `tsConfigPath` when the project has its own): generating or removing another app changes only those.
 */
export function buildSettingsOf(cli, name) {
  const { projects = {}, root: _root, sourceRoot: _sourceRoot, compilerOptions = {}, ...shared } = cli;
  const project = projects[name];
  const { tsConfigPath, ...sharedCompiler } = compilerOptions;
  const libraries = Object.entries(projects).filter(([, p]) => p.type !== 'application');
  return JSON.stringify({
    shared,
    compilerOptions: project.compilerOptions?.tsConfigPath ? sharedCompiler : { ...sharedCompiler, tsConfigPath },
    project,
    libraries,
  });
}
