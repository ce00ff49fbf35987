import { join, normalize } from '@angular-devkit/core';
import {
  Rule,
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
import { typeRefusal } from '../utils/option-rules';
import { NestCliJson, appProject } from '../utils/app-project';
import { addForRootOption } from '../utils/for-root-option.rule';

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
    const app = appProject(tree, 'mcp-skill', options);
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
        addForRootOption('mcp-skill', app.sourceRoot, 'skills', SKILLS_OPTION, 'MCP_SKILLS_DIR'),
        copySkills(app.project),
        noteInChangelog(app.sourceRoot, `Skill \`${names.fileName}\`: TODO: say what it teaches.`),
        formatGenerated(),
      ]),
    );
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
