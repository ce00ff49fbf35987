import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** One application project of nest-cli.json that lives under apps/: a team's server (or the example). */
export interface AppProject {
  name: string;
  /** `apps/<name>`, relative to the repository. */
  root: string;
  /** The server's own version (its package.json), as clients see it. */
  version: string;
}

/**
 * Every app under apps/ registered in nest-cli.json, whatever it is called: the per-app checks (deploy files,
 * contract) iterate over these, so they follow a team's own apps and survive deleting the example.
 */
export function appsUnderApps(root = resolve(__dirname, '../..')): AppProject[] {
  const cli = JSON.parse(readFileSync(join(root, 'nest-cli.json'), 'utf8')) as {
    projects?: Record<string, { type: string; root: string }>;
  };
  return Object.entries(cli.projects ?? {})
    .filter(([, p]) => p.type === 'application' && p.root.startsWith('apps/'))
    .map(([name, p]) => {
      const pkg = join(root, p.root, 'package.json');
      const version = existsSync(pkg) ? (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version : '';
      return { name, root: p.root, version };
    });
}

/** `describe.each` over the apps; a repository with none fails with what to do instead of running nothing. */
export function eachApp(): [string, AppProject][] {
  const apps = appsUnderApps();
  if (apps.length === 0) throw new Error('no app under apps/ in nest-cli.json: generate one with nest g mcp-server');
  return apps.map((a) => [a.name, a]);
}

/** The compiled entry `nest build <app>` writes: the project's tsconfig outDir + entryFile (what npm start runs). */
export function builtMain(name: string, root = resolve(__dirname, '../..')): string {
  const cli = JSON.parse(readFileSync(join(root, 'nest-cli.json'), 'utf8')) as {
    compilerOptions?: { tsConfigPath?: string };
    projects: Record<string, { entryFile: string; compilerOptions?: { tsConfigPath?: string } }>;
  };
  const project = cli.projects[name];
  const tsconfig = join(root, project.compilerOptions?.tsConfigPath ?? cli.compilerOptions!.tsConfigPath!);
  const outDir = (JSON.parse(readFileSync(tsconfig, 'utf8')) as { compilerOptions: { outDir: string } }).compilerOptions
    .outDir;
  return resolve(tsconfig, '..', outDir, `${project.entryFile}.js`);
}
