import { McpPromptOptions } from '../decorators/decorator-options.interface';
import { RegistryViolations, TOOL_NAME_PATTERN, toSnakeCase } from './registry-rules';
import { McpHandler, PromptEntry } from './registry-entries';

/** Compiles one `@McpPrompt`. Prompt names follow the tool-name rule. @internal */
export function buildPromptEntry(
  o: McpPromptOptions,
  source: { className: string; methodName: string },
  handler: McpHandler,
  violations: RegistryViolations,
): PromptEntry | undefined {
  const where = `${source.className}.${source.methodName}`;
  const name = o.name ?? toSnakeCase(source.methodName);
  let ok = true;
  if (!TOOL_NAME_PATTERN.test(name)) {
    violations.add(where, `prompt name "${name}" does not match ${TOOL_NAME_PATTERN}`);
    ok = false;
  }
  if (!o.description?.trim()) {
    violations.add(where, `prompt "${name}" has an empty description`);
    ok = false;
  }
  const names = new Set<string>();
  for (const a of o.arguments ?? []) {
    if (!a.name || names.has(a.name)) {
      violations.add(where, `prompt "${name}" has a missing or duplicate argument name "${a.name ?? ''}"`);
      ok = false;
    }
    names.add(a.name);
  }
  if (!ok) return undefined;
  const definition: Record<string, unknown> = { name };
  if (o.title) definition.title = o.title;
  definition.description = o.description;
  if (o.arguments?.length) definition.arguments = o.arguments;
  if (o.icons) definition.icons = o.icons;
  if (o._meta) definition._meta = o._meta;
  const required = (o.arguments ?? []).filter((a) => a.required).map((a) => a.name);
  return { name, definition, required, handler, ...source };
}
