import { Rule, SchematicsException } from '@angular-devkit/schematics';
import { nameForms } from '../utils/names';
import { ProviderSchematicOptions, providerRule } from '../utils/provider.rule';

/** Options of `nest g mcp-tool`. */
export interface McpToolSchematicOptions extends ProviderSchematicOptions {
  /** `readonly` (default) or the risk of a mutating tool; the form `nest g` can pass through. */
  type?: string;
  mutating?: boolean;
  risk?: string;
}

const RISKS = ['low', 'medium', 'high'];

/**
 * `nest g mcp-tool <name> --project <app> [--type low|medium|high]`: a tools provider with one `@McpTool`
 * (snake_case name), its DTO and a spec that calls it through the testing kit. A mutating tool carries every
 * `mutation` field the boot check demands, as TODO placeholders that a reviewer cannot miss.
 */
export function main(options: McpToolSchematicOptions): Rule {
  const names = nameForms(options.name, 'mcp-tool');
  const risk = riskOf(options);
  return providerRule({ type: 'tools', files: '../../files/mcp-tool' }, options, names, {
    mutating: risk !== undefined,
    risk: risk ?? '',
    destructive: risk === 'high',
  });
}

function riskOf(options: McpToolSchematicOptions): string | undefined {
  const type = options.type?.trim().toLowerCase();
  if (type && type !== 'readonly' && !RISKS.includes(type)) {
    throw new SchematicsException(`mcp-tool: --type must be readonly, low, medium or high (got "${options.type}")`);
  }
  if (options.risk !== undefined && !RISKS.includes(options.risk)) {
    throw new SchematicsException(`mcp-tool: --risk must be low, medium or high (got "${options.risk}")`);
  }
  if (type && type !== 'readonly') return type;
  if (options.mutating) return options.risk ?? 'medium';
  if (options.risk !== undefined) throw new SchematicsException('mcp-tool: --risk goes with --mutating');
  return undefined;
}
