import { join, normalize } from '@angular-devkit/core';
import {
  Rule,
  SchematicsException,
  Tree,
  apply,
  chain,
  mergeWith,
  move,
  renameTemplateFiles,
  template,
  url,
} from '@angular-devkit/schematics';
import { appProject } from '../utils/app-project';
import { addForRootOption } from '../utils/for-root-option.rule';
import { formatGenerated } from '../utils/format.rule';
import { nameForms } from '../utils/names';
import { typeRefusal } from '../utils/option-rules';
import { ProviderSchematicOptions, providerRule, serviceName } from '../utils/provider.rule';

/** Options of `nest g mcp-app`. */
export interface McpAppSchematicOptions extends ProviderSchematicOptions {
  /** Refused: a view has no variants (the Nest CLI forwards `--type`, so it is refused, not ignored). */
  type?: string;
}

/**
 * The `views` option app.module.ts passes to `McpModule.forRoot`: the folder `npm run build` bundles the app's views
 * into, beside the compiled app (`<app root>/views/` under dist), so the same path holds in dist and in the image.
 */
export const VIEWS_OPTION = 'views: { root: `${__dirname}/../views` }';

/**
 * `nest g mcp-app <name> --project <app>`: an MCP Apps view and the tool that opens it. Writes the view's sources,
 * `<app root>/views/<name>/` (index.html + main.ts with the official App class: it renders the tool's result, follows
 * the host's theme and refreshes through the host), which `npm run build` bundles into one document; a provider
 * with `@McpApp({ uri: 'ui://<app>/<name>', view })` and the read-only tool `show_<name>` linked to it, registered
 * in the nearest module, and a spec that bundles the view and reads it through the testing kit. The app is wired to
 * serve its built views when it did not yet. Descriptions start as `TODO:` sentences (a warning at boot in
 * development, refused in production and by the contract gate until they are written).
 */
export function main(options: McpAppSchematicOptions): Rule {
  const names = nameForms(options.name, 'mcp-app');
  const refusal = typeRefusal('mcp-app', options.type);
  if (refusal) throw new SchematicsException(refusal);
  return (tree: Tree) => {
    const app = appProject(tree, 'mcp-app', options);
    const folder = join(normalize(app.root), 'views', names.fileName);
    if (tree.exists(join(folder, 'index.html')) || tree.exists(join(folder, 'main.ts'))) {
      throw new SchematicsException(
        `mcp-app: ${folder.replace(/^\//, '')}/ already exists: choose another name or delete it first`,
      );
    }
    const uri = `ui://${app.project ?? serviceName(tree, app.sourceRoot, 'app')}/${names.fileName}`;
    const view = apply(url('../../files/mcp-app-view'), [
      template({ ...names, uri }),
      renameTemplateFiles(),
      move(folder),
    ]);
    return chain([
      providerRule(
        { schematic: 'mcp-app', type: 'app', files: '../../files/mcp-app' },
        { ...options, sourceRoot: app.sourceRoot },
        names,
        { uri, projectRoot: app.root.replace(/^\//, ''), constName: names.mcpName.toUpperCase() },
      ),
      mergeWith(view),
      addForRootOption('mcp-app', app.sourceRoot, 'views', VIEWS_OPTION, 'MCP_VIEWS_DIR'),
      formatGenerated(),
    ]);
  };
}
