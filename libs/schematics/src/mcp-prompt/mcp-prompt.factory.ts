import { Rule } from '@angular-devkit/schematics';
import { nameForms } from '../utils/names';
import { ProviderSchematicOptions, providerRule } from '../utils/provider.rule';

/** `nest g mcp-prompt <name> --project <app>`: a prompts provider with one `@McpPrompt` and its spec. */
export function main(options: ProviderSchematicOptions): Rule {
  return providerRule(
    { type: 'prompts', files: '../../files/mcp-prompt' },
    options,
    nameForms(options.name, 'mcp-prompt'),
    {},
  );
}
