import { Path, join, normalize } from '@angular-devkit/core';
import {
  Rule,
  SchematicsException,
  Tree,
  apply,
  branchAndMerge,
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
import { noteInChangelog } from './changelog.rule';
import { listInReadme } from './readme.rule';
import { formatGenerated } from './format.rule';
import { NameForms } from './names';
import { McpSchematic, applications, projectRefusal } from './option-rules';

/** Options every provider schematic (mcp-tool, mcp-prompt, mcp-resource, mcp-app) shares with `nest g service`. */
export interface ProviderSchematicOptions {
  name: string;
  path?: string;
  project?: string;
  sourceRoot?: string;
  flat?: boolean;
  spec?: boolean;
  specFileSuffix?: string;
  skipImport?: boolean;
  language?: string;
}

/** One provider kind: its generator, its class suffix (`Tools`) and its template folder under libs/schematics/files. */
export interface ProviderKind {
  /** The generator, for messages. */
  schematic: McpSchematic;
  /** `tools`, `prompts`, `resources` or `app` (a view and its tool): the file suffix and, capitalised, the class. */
  type: 'tools' | 'prompts' | 'resources' | 'app';
  /** The template folder, relative to the compiled factory. */
  files: string;
}

/**
 * Writes a provider (and its spec) from templates into `<sourceRoot>/<path>/<name>/` and registers it in the
 * nearest module up the tree, exactly as `nest g service` places and registers a service.
 */
export function providerRule(
  kind: ProviderKind,
  options: ProviderSchematicOptions,
  names: NameForms,
  vars: Record<string, unknown>,
): Rule {
  if (options.language && options.language !== 'ts') {
    throw new SchematicsException(`only TypeScript is supported (got --language ${options.language})`);
  }
  const base = normalize(join(normalize(options.sourceRoot ?? ''), options.path ?? ''));
  const path = options.flat ? base : join(base, names.fileName);
  const specSuffix = options.specFileSuffix || 'spec';
  // The repository root as a spec in `path` reaches it (`../../../..`): a view's spec bundles it with scripts/lib.
  const depth = path.split('/').filter(Boolean).length;
  const toRoot = depth ? Array(depth).fill('..').join('/') : '.';
  const templateSource = apply(url(kind.files), [
    options.spec === false ? filter((p) => !p.endsWith('.__specFileSuffix__.ts.template')) : noop(),
    template({ ...names, ...vars, specFileSuffix: specSuffix, toRoot }),
    renameTemplateFiles(),
    move(path),
  ]);
  return branchAndMerge(
    chain([
      checkProject(kind.schematic, options),
      checkNew(kind, names, path),
      options.skipImport ? noop() : registerInModule(kind, names, path),
      mergeWith(templateSource),
      noteInChangelog(options.sourceRoot, changelogLine(kind, names, vars)),
      listedInReadme(kind, names, vars, options.sourceRoot),
      formatGenerated(),
    ]),
  );
}

/**
 * The CHANGELOG line of a generated provider: what clients will see appear, by its MCP name (a resource's URI
 * beside it), with a `TODO:` a reviewer cannot miss where the team says what it does before release.
 */
function changelogLine(kind: ProviderKind, names: NameForms, vars: Record<string, unknown>): string {
  if (kind.type === 'app')
    return `View \`${String(vars.uri)}\` and its tool \`show_${names.mcpName}\`: TODO: say what it shows.`;
  const what = { tools: 'Tool', prompts: 'Prompt', resources: 'Resource' }[kind.type];
  const uri = typeof vars.uri === 'string' ? ` (\`${vars.uri}\`)` : '';
  return `${what} \`${names.mcpName}\`${uri}: TODO: say what it does.`;
}

/**
 * The README row of a generated provider: a tool in the Tools table (a generated tool declares no scopes), a prompt
 * or resource (by its URI, as clients read it) in the table of prompts and resources; a view in the latter and its
 * tool in the former.
 */
function listedInReadme(
  kind: ProviderKind,
  names: NameForms,
  vars: Record<string, unknown>,
  sourceRoot: string | undefined,
): Rule {
  if (kind.type === 'tools') return listInReadme(sourceRoot, 'Tools', names.mcpName, 'none');
  if (kind.type === 'app') {
    return chain([
      listInReadme(sourceRoot, 'Tools', `show_${names.mcpName}`, 'none'),
      listInReadme(sourceRoot, 'Prompts and resources', String(vars.uri), 'view'),
    ]);
  }
  if (kind.type === 'prompts') return listInReadme(sourceRoot, 'Prompts and resources', names.mcpName, 'prompt');
  const what = vars.isTemplate ? 'resource template' : 'resource';
  return listInReadme(sourceRoot, 'Prompts and resources', String(vars.uri), what);
}

/**
 * Refuses a `--project` that is not an application of nest-cli.json: the Nest CLI would otherwise fall back to
 * the default project's source root and write the provider into another team's app without a word.
 */
function checkProject(schematic: McpSchematic, options: ProviderSchematicOptions): Rule {
  return (tree: Tree) => {
    if (options.project === undefined && (options.sourceRoot || options.path)) return tree;
    const cli = tree.read('nest-cli.json')?.toString() ?? '{}';
    const apps = applications(cli);
    if (options.project === undefined || !apps.all.includes(options.project)) {
      throw new SchematicsException(projectRefusal(schematic, apps.underApps, options.project));
    }
    return tree;
  };
}

/**
 * Refuses a provider that already exists: generating it again would leave its files as they are but import it
 * into the module a second time, which no longer compiles.
 */
function checkNew(kind: ProviderKind, names: NameForms, path: Path): Rule {
  return (tree: Tree) => {
    const file = join(path, `${names.fileName}.${kind.type}.ts`);
    if (tree.exists(file)) {
      throw new SchematicsException(
        `${kind.schematic}: ${file.replace(/^\//, '')} already exists: choose another name or delete it first`,
      );
    }
    return tree;
  };
}

/** Adds the provider to `providers` of the nearest `*.module.ts` at or above `path`. */
function registerInModule(kind: ProviderKind, names: NameForms, path: Path): Rule {
  return (tree: Tree) => {
    const module = new ModuleFinder(tree).find({ name: names.fileName, path });
    if (!module) {
      throw new SchematicsException(
        `no *.module.ts at or above ${path}: create the module first or pass --skip-import`,
      );
    }
    const content = tree.read(module)!.toString();
    const declared = new ModuleDeclarator().declare(content, {
      metadata: 'providers',
      type: kind.type,
      name: names.fileName,
      path,
      module,
    });
    tree.overwrite(module, declared);
    return tree;
  };
}

/**
 * The MCP service name of the app that owns `sourceRoot`: the `name` given to `McpModule.forRoot` in its
 * app.module.ts (also the URI scheme of its resources), else the fallback.
 */
export function serviceName(tree: Tree, sourceRoot: string | undefined, fallback: string): string {
  const file = sourceRoot ? tree.read(join(normalize(sourceRoot), 'app.module.ts')) : null;
  const found = file && /McpModule\.forRoot\(\{\s*name:\s*'([a-z][a-z0-9+.-]*)'/.exec(file.toString());
  return found?.[1] ?? fallback;
}
