import { Rule, SchematicsException } from '@angular-devkit/schematics';
import { nameForms } from '../utils/names';
import { typeRefusal } from '../utils/option-rules';
import { ProviderSchematicOptions, providerRule } from '../utils/provider.rule';

/** Options of `nest g mcp-tool`. */
export interface McpToolSchematicOptions extends ProviderSchematicOptions {
  /** `readonly` (default), the risk of a mutating tool, or `task` (a long-running read-only tool run as a task). */
  type?: string;
  mutating?: boolean;
  risk?: string;
}

const RISKS = ['low', 'medium', 'high'];

/**
 * `nest g mcp-tool <name> --project <app> [--type low|medium|high|task]`: a tools provider with one `@McpTool`
 * (snake_case name), its DTO and a spec that calls it through the testing kit. `--type task` writes a long-running
 * tool that runs as a task (progress, cancellation) and a spec that drives the task to its end in both eras. A
 * mutating tool carries every `mutation` field the boot check demands, as `TODO:` placeholders that a reviewer
 * cannot miss: the platform refuses them at boot when NODE_ENV=production, and the contract gate refuses to record
 * them.
 */
export function main(options: McpToolSchematicOptions): Rule {
  const names = nameForms(options.name, 'mcp-tool');
  const task = options.type === 'task';
  const risk = task ? undefined : riskOf(options);
  return providerRule({ schematic: 'mcp-tool', type: 'tools', files: '../../files/mcp-tool' }, options, names, {
    mutating: risk !== undefined,
    risk: risk ?? '',
    destructive: risk === 'high',
    task,
  });
}

function riskOf(options: McpToolSchematicOptions): string | undefined {
  const refusal = typeRefusal('mcp-tool', options.type);
  if (refusal) throw new SchematicsException(refusal);
  if (options.risk !== undefined && !RISKS.includes(options.risk)) {
    throw new SchematicsException(`mcp-tool: unknown --risk ${JSON.stringify(options.risk)}: use low, medium or high`);
  }
  if (options.type && options.type !== 'readonly') return options.type;
  if (options.mutating) return options.risk ?? 'medium';
  if (options.risk !== undefined) throw new SchematicsException('mcp-tool: --risk goes with --mutating');
  return undefined;
}
