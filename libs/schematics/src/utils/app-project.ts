import { dirname, normalize } from '@angular-devkit/core';
import { SchematicsException, Tree } from '@angular-devkit/schematics';
import { McpSchematic, applications, projectRefusal } from './option-rules';

/** The app a file-based generator writes into: its nest-cli.json project (when known), its root and source root. */
export interface AppProject {
  project?: string;
  root: string;
  sourceRoot: string;
}

/** The parts of nest-cli.json the generators read and edit. */
export interface NestCliJson {
  projects?: Record<
    string,
    { type?: string; root?: string; sourceRoot?: string; compilerOptions?: { assets?: unknown[] } }
  >;
}

/**
 * The app generated into, from `--project` (an application of nest-cli.json; anything else is refused with the list
 * of apps) or, without one, from the source root the Nest CLI passed. Generators that write beside src/ (skills/,
 * views/) need the app's root, not only its source root.
 */
export function appProject(
  tree: Tree,
  schematic: McpSchematic,
  options: { project?: string; sourceRoot?: string },
): AppProject {
  const cli = tree.read('nest-cli.json')?.toString() ?? '{}';
  const projects = (JSON.parse(cli) as NestCliJson).projects ?? {};
  if (options.project !== undefined && applications(cli).all.includes(options.project)) {
    const p = projects[options.project];
    const root = p.root ?? `apps/${options.project}`;
    return { project: options.project, root, sourceRoot: options.sourceRoot ?? p.sourceRoot ?? `${root}/src` };
  }
  if (options.project === undefined && options.sourceRoot) {
    return { root: dirname(normalize(options.sourceRoot)), sourceRoot: options.sourceRoot };
  }
  throw new SchematicsException(projectRefusal(schematic, applications(cli).underApps, options.project));
}
