import { dirname, join, normalize } from '@angular-devkit/core';
import {
  Rule,
  SchematicContext,
  SchematicsException,
  Tree,
  apply,
  branchAndMerge,
  chain,
  mergeWith,
  move,
  renameTemplateFiles,
  template,
  url,
} from '@angular-devkit/schematics';
import { noteInChangelog } from '../utils/changelog.rule';
import { formatGenerated } from '../utils/format.rule';
import { nameForms } from '../utils/names';
import { applications, projectRefusal, typeRefusal } from '../utils/option-rules';

/** Options of `nest g mcp-skill`. */
export interface McpSkillSchematicOptions {
  name: string;
  project?: string;
  sourceRoot?: string;
  /** Refused: a skill has no variants (the Nest CLI forwards `--type`, so it is refused, not ignored). */
  type?: string;
  language?: string;
}

/** The glob nest-cli.json copies beside the compiled app, so `${__dirname}/../skills` holds in src/ and in dist/. */
export const SKILLS_ASSET = '../skills/**/*';

/** The `skills` option app.module.ts passes to `McpModule.forRoot`: the app's skills/ folder, beside agent/. */
export const SKILLS_OPTION = 'skills: { root: `${__dirname}/../skills` }';

/**
 * `nest g mcp-skill <name> --project <app>`: `apps/<app>/skills/<name>/SKILL.md` with `TODO:` sentences (a warning at
 * boot in development, refused in production and by the contract gate until they are written), the app wired to
 * serve its skills/ folder when it did not yet, and a CHANGELOG line.
 */
export function main(options: McpSkillSchematicOptions): Rule {
  const names = nameForms(options.name, 'mcp-skill');
  const refusal = typeRefusal('mcp-skill', options.type);
  if (refusal) throw new SchematicsException(refusal);
  return (tree: Tree) => {
    const app = appOf(tree, options);
    const folder = join(normalize(app.root), 'skills', names.fileName);
    const skillMd = join(folder, 'SKILL.md');
    if (tree.exists(skillMd)) {
      throw new SchematicsException(
        `mcp-skill: ${skillMd.replace(/^\//, '')} already exists: choose another name or delete it first`,
      );
    }
    const files = apply(url('../../files/mcp-skill'), [
      template({ name: names.fileName, title: names.title }),
      renameTemplateFiles(),
      move(folder),
    ]);
    return branchAndMerge(
      chain([
        mergeWith(files),
        serveSkills(app.sourceRoot),
        copySkills(app.project),
        noteInChangelog(app.sourceRoot, `Skill \`${names.fileName}\`: TODO: say what it teaches.`),
        formatGenerated(),
      ]),
    );
  };
}

/** The app generated into: its nest-cli.json project (refused when unknown), its root and source root. */
function appOf(tree: Tree, options: McpSkillSchematicOptions): { project?: string; root: string; sourceRoot: string } {
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
  throw new SchematicsException(projectRefusal('mcp-skill', applications(cli).underApps, options.project));
}

interface NestCliJson {
  projects?: Record<
    string,
    { type?: string; root?: string; sourceRoot?: string; compilerOptions?: { assets?: unknown[] } }
  >;
}

/**
 * Adds `skills: { root: `${__dirname}/../skills` }` to the app's `McpModule.forRoot({ name: ... })` in app.module.ts,
 * unless it already passes `skills`; an app.module.ts it cannot find the call in is left as it is, with a warning
 * saying what to add.
 */
function serveSkills(sourceRoot: string): Rule {
  return (tree: Tree, context: SchematicContext) => {
    const file = join(normalize(sourceRoot), 'app.module.ts');
    const text = tree.read(file)?.toString();
    const call = text === undefined ? null : /McpModule\.forRoot\(\{\s*name:\s*'[^']*'\s*,?/.exec(text);
    if (text !== undefined && /\bskills\s*:/.test(text)) return tree;
    if (!call || text === undefined) {
      context.logger.warn(
        `mcp-skill: add ${SKILLS_OPTION} to McpModule.forRoot in ${file.replace(/^\//, '')} (or set MCP_SKILLS_DIR) ` +
          'to serve the skills/ folder',
      );
      return tree;
    }
    const end = call.index + call[0].length;
    const head = call[0].trimEnd().endsWith(',') ? text.slice(0, end) : `${text.slice(0, end).trimEnd()},`;
    tree.overwrite(file, `${head} ${SKILLS_OPTION},${text.slice(end)}`);
    return tree;
  };
}

/** Adds the skills/ folder to the assets nest-cli.json copies beside the compiled app, unless it is there. */
function copySkills(project: string | undefined): Rule {
  return (tree: Tree) => {
    const raw = tree.read('nest-cli.json')?.toString();
    if (!raw || project === undefined) return tree;
    const cli = JSON.parse(raw) as NestCliJson;
    const p = cli.projects?.[project];
    if (!p) return tree;
    p.compilerOptions ??= {};
    const assets = (p.compilerOptions.assets ??= []);
    if (assets.includes(SKILLS_ASSET)) return tree;
    assets.push(SKILLS_ASSET);
    tree.overwrite('nest-cli.json', `${JSON.stringify(cli, null, 2)}\n`);
    return tree;
  };
}
