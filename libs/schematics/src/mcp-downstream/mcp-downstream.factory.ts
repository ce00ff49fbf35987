import { Path, dirname, join, normalize } from '@angular-devkit/core';
import {
  Rule,
  SchematicsException,
  Tree,
  apply,
  chain,
  filter,
  mergeWith,
  move,
  noop,
  renameTemplateFiles,
  template,
  url,
} from '@angular-devkit/schematics';
import { ModuleDeclarator, ModuleFinder } from '@nestjs/schematics';
import { appProject } from '../utils/app-project';
import { noteInChangelog } from '../utils/changelog.rule';
import { formatGenerated } from '../utils/format.rule';
import { nameForms } from '../utils/names';
import { typeRefusal } from '../utils/option-rules';
import { ProviderSchematicOptions } from '../utils/provider.rule';
import { listInReadme } from '../utils/readme.rule';

/** Options of `nest g mcp-downstream`. */
export interface McpDownstreamSchematicOptions extends ProviderSchematicOptions {
  /** Refused: one kind of client is generated (the Nest CLI forwards `--type`, so it is refused, not ignored). */
  type?: string;
}

/**
 * `nest g mcp-downstream <name> --project <app>`: a client for another service and a tool that calls it, in
 * `<source root>/<name>/`: `<name>.downstream.ts` (its options from `<NAME>_URL` and `<NAME>_API_KEY`, checked at
 * boot), `<name>.module.ts` (`McpDownstreamModule.registerAsync` and the tools), imported into the nearest module
 * above (the app's module), the tool `get_<name>_item` with its DTO, and a spec that drives the tool against a local
 * test double of the service. Descriptions start as `TODO:` sentences (a warning at boot in development, refused in
 * production and by the contract gate until they are written).
 */
export function main(options: McpDownstreamSchematicOptions): Rule {
  const names = nameForms(options.name, 'mcp-downstream');
  const refusal = typeRefusal('mcp-downstream', options.type);
  if (refusal) throw new SchematicsException(refusal);
  if (options.language && options.language !== 'ts') {
    throw new SchematicsException(`only TypeScript is supported (got --language ${options.language})`);
  }
  return (tree: Tree) => {
    const app = appProject(tree, 'mcp-downstream', options);
    const base = normalize(join(normalize(app.sourceRoot), options.path ?? ''));
    const folder = options.flat ? base : join(base, names.fileName);
    const moduleFile = join(folder, `${names.fileName}.module.ts`);
    if (tree.exists(moduleFile) || tree.exists(join(folder, `${names.fileName}.downstream.ts`))) {
      throw new SchematicsException(
        `mcp-downstream: ${moduleFile.replace(/^\//, '')} already exists: choose another name or delete it first`,
      );
    }
    const envPrefix = names.fileName.toUpperCase().replace(/-/g, '_');
    const files = apply(url('../../files/mcp-downstream'), [
      options.spec === false ? filter((p) => !p.endsWith('.__specFileSuffix__.ts.template')) : noop(),
      template({ ...names, constName: envPrefix, envPrefix, specFileSuffix: options.specFileSuffix || 'spec' }),
      renameTemplateFiles(),
      move(folder),
    ]);
    const tool = `get_${names.mcpName}_item`;
    return chain([
      options.skipImport ? noop() : importInParent(names.fileName, names.className, folder),
      mergeWith(files),
      noteInChangelog(app.sourceRoot, `Tool \`${tool}\`: TODO: say what it does.`),
      listInReadme(app.sourceRoot, 'Tools', tool, 'none'),
      formatGenerated(),
    ]);
  };
}

/** Adds `<Name>Module` to `imports` of the nearest `*.module.ts` above the new folder (the app's module). */
function importInParent(fileName: string, className: string, folder: Path): Rule {
  return (tree: Tree) => {
    const parent = new ModuleFinder(tree).find({ name: fileName, path: dirname(folder) });
    if (!parent) {
      throw new SchematicsException(
        `no *.module.ts at or above ${dirname(folder)}: create the module first or pass --skip-import`,
      );
    }
    const declared = new ModuleDeclarator().declare(tree.read(parent)!.toString(), {
      metadata: 'imports',
      type: 'module',
      name: fileName,
      className: `${className}Module`,
      path: folder,
      module: parent,
    });
    tree.overwrite(parent, declared);
    return tree;
  };
}
