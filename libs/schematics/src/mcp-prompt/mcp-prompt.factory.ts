import { Rule, SchematicsException } from '@angular-devkit/schematics';
import { nameForms } from '../utils/names';
import { typeRefusal } from '../utils/option-rules';
import { ProviderSchematicOptions, providerRule } from '../utils/provider.rule';

/** Options of `nest g mcp-prompt`. */
export interface McpPromptSchematicOptions extends ProviderSchematicOptions {
  /** Refused: a prompt has no variants (the Nest CLI forwards `--type`, so it is refused, not ignored). */
  type?: string;
}

/** `nest g mcp-prompt <name> --project <app>`: a prompts provider with one `@McpPrompt` and its spec. */
export function main(options: McpPromptSchematicOptions): Rule {
  const names = nameForms(options.name, 'mcp-prompt');
  const refusal = typeRefusal('mcp-prompt', options.type);
  if (refusal) throw new SchematicsException(refusal);
  return providerRule(
    { schematic: 'mcp-prompt', type: 'prompts', files: '../../files/mcp-prompt' },
    options,
    names,
    {},
  );
}
