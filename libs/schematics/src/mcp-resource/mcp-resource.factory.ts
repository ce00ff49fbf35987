import { Rule, SchematicsException, Tree } from '@angular-devkit/schematics';
import { nameForms } from '../utils/names';
import { typeRefusal } from '../utils/option-rules';
import { ProviderSchematicOptions, providerRule, serviceName } from '../utils/provider.rule';

/** Options of `nest g mcp-resource`. */
export interface McpResourceSchematicOptions extends ProviderSchematicOptions {
  /** `fixed` (default) or `template`; the form `nest g` can pass through. */
  type?: string;
  template?: boolean;
}

/**
 * `nest g mcp-resource <name> --project <app> [--type template]`: a resources provider with one `@McpResource`
 * (`<scheme>://<name>`) or `@McpResourceTemplate` (`<scheme>://<name>/{id}`), and its spec. The scheme is
 * the app's MCP service name, read from its app.module.ts.
 */
export function main(options: McpResourceSchematicOptions): Rule {
  const names = nameForms(options.name, 'mcp-resource');
  const refusal = typeRefusal('mcp-resource', options.type);
  if (refusal) throw new SchematicsException(refusal);
  const isTemplate = options.type === 'template' || options.template === true;
  return (tree: Tree) => {
    const scheme = serviceName(tree, options.sourceRoot, options.project ?? 'app');
    const uri = `${scheme}://${names.fileName}${isTemplate ? '/{id}' : ''}`;
    return providerRule(
      { schematic: 'mcp-resource', type: 'resources', files: '../../files/mcp-resource' },
      options,
      names,
      { isTemplate, scheme, uri },
    );
  };
}
