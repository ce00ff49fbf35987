import { JsonSchema, McpToolOptions } from '../decorators/decorator-options.interface';
import { ToolTask } from './registry-entries';
import { TOOL_SAFETY_META_KEY, renderToolSafety } from './tool-description.renderer';

/**
 * The `tools/list` entry of a valid tool, built once at boot: its description carries the safety notes, its
 * `_meta` the safety record. Keys in the order clients show them.
 * @internal
 */
export function createToolDefinition(
  options: McpToolOptions,
  name: string,
  schemas: { input: JsonSchema; output: JsonSchema | undefined },
  task: ToolTask | undefined,
  service: string,
  timeoutMs: number,
): Record<string, unknown> {
  const { description, annotations, safety } = renderToolSafety(options, name, service, timeoutMs);
  const definition: Record<string, unknown> = { name };
  if (options.title) definition.title = options.title;
  definition.description = description;
  definition.inputSchema = schemas.input;
  if (schemas.output) definition.outputSchema = schemas.output;
  if (Object.keys(annotations).length) definition.annotations = annotations;
  if (options.icons) definition.icons = options.icons;
  // 2025-11-25 clients read it (tasks utility); the 2026-07-28 projection drops it (tasks are an extension there).
  if (task) definition.execution = { taskSupport: task.support };
  const ui = toolUi(options);
  if (options._meta || safety || ui)
    definition._meta = {
      ...options._meta,
      ...(ui ? { ui } : {}),
      ...(safety ? { [TOOL_SAFETY_META_KEY]: safety } : {}),
    };
  return definition;
}

/** A tool's `_meta.ui` (MCP Apps, docs/apps.md): the view it links to and its visibility, default both. @internal */
export function toolUi(options: McpToolOptions): { resourceUri: string; visibility: ('model' | 'app')[] } | undefined {
  if (!options.ui) return undefined;
  return { resourceUri: options.ui.resourceUri, visibility: options.ui.visibility ?? ['model', 'app'] };
}
