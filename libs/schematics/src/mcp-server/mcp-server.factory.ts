import { strings } from '@angular-devkit/core';
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
import { formatGenerated } from '../utils/format.rule';
import { serverRefusal } from '../utils/option-rules';

/** Options of `nest g mcp-server`. */
export interface McpServerSchematicOptions {
  name: string;
  /** The new app's name again: `nest g` asks which project to generate into unless it is given. */
  project?: string;
  /** The HTTP adapter the server serves on: `express` (the default) or `fastify`; anything else is refused. */
  type?: string;
  spec?: boolean;
}

interface NestCliJson {
  projects?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

/**
 * `nest g mcp-server <name> [--type express|fastify]`: a new application `apps/<name>` (main.ts through
 * `bootstrapMcpServer`, on Express or with `--type fastify` on Fastify, its e2e spec on the same adapter, an
 * AppModule configured from the environment, one read-only sample tool with its DTO, a health module, the
 * agent brief and prompt, its own version and CHANGELOG, an e2e spec on the testing kit, a Kubernetes overlay of
 * deploy/kubernetes/base), registered in nest-cli.json so `npm start -- <name>` and `npm run build -- <name>` know it.
 */
export function main(options: McpServerSchematicOptions): Rule {
  const refusal = serverRefusal(options.name, options.project, options.type);
  if (refusal) throw new SchematicsException(refusal);
  const name = options.name;
  return chain([
    registerProject(name),
    mergeWith(
      apply(url('../../files/mcp-server'), [
        template({
          ...strings,
          name,
          title: strings.capitalize(name.replace(/-/g, ' ')),
          fastify: options.type === 'fastify',
        }),
        renameTemplateFiles(),
        move(`apps/${name}`),
      ]),
    ),
    formatGenerated(),
  ]);
}

/** Adds `apps/<name>` to nest-cli.json's projects, as `nest g app` does in a monorepo. */
function registerProject(name: string): Rule {
  return (tree: Tree) => {
    const raw = tree.read('nest-cli.json');
    if (!raw) throw new SchematicsException('mcp-server: run it at the repository root (no nest-cli.json here)');
    const cli = JSON.parse(raw.toString()) as NestCliJson;
    cli.projects ??= {};
    if (cli.projects[name] || tree.exists(`apps/${name}/src/main.ts`)) {
      throw new SchematicsException(`mcp-server: a project "${name}" already exists`);
    }
    cli.projects[name] = {
      type: 'application',
      root: `apps/${name}`,
      entryFile: `apps/${name}/src/main`,
      sourceRoot: `apps/${name}/src`,
      compilerOptions: {
        tsConfigPath: `apps/${name}/tsconfig.app.json`,
        assets: ['../agent/*.md', '../skills/**/*', '../README.md', '../package.json'],
      },
    };
    tree.overwrite('nest-cli.json', `${JSON.stringify(cli, null, 2)}\n`);
    return tree;
  };
}
