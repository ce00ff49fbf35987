import { McpRegistry } from '../registry/mcp.registry';
import { ProtocolVersion, eraFeatures } from '../wire/protocol-version';
import { TASKS_EXTENSION } from '../tasks/tasks.constants';

/** A capability a method belongs to: without entries of its kind the method answers `-32601`. @internal */
export type Capability = 'tools' | 'prompts' | 'resources' | 'completions';

/** Whether the registry has entries of this capability now (entries may be added at run time). @internal */
export function serves(registry: McpRegistry, capability: Capability): boolean {
  switch (capability) {
    case 'tools':
      return registry.tools.size > 0;
    case 'prompts':
      return registry.prompts.size > 0;
    case 'resources':
      return registry.resources.size > 0 || registry.templates.size > 0;
    case 'completions':
      return registry.completions.size > 0;
  }
}

/**
 * The capabilities this registry supports; declared in `initialize` and `server/discover`. With task tools: the
 * tasks extension to 2026-07-28 clients, the tasks utility to 2025-11-25 sessions (`tasks/list` only when callers
 * are told apart: without authentication every caller would see every task).
 * @internal
 */
export function serverCapabilities(
  registry: McpRegistry,
  version?: ProtocolVersion,
  authDisabled = false,
): Record<string, unknown> {
  const caps: Record<string, unknown> = { logging: {} };
  if (serves(registry, 'tools')) caps.tools = { listChanged: true };
  if (serves(registry, 'prompts')) caps.prompts = { listChanged: true };
  if (serves(registry, 'resources')) caps.resources = { subscribe: true, listChanged: true };
  if (serves(registry, 'completions')) caps.completions = {};
  if (version && [...registry.tools.values()].some((t) => t.task)) {
    if (eraFeatures(version).modern) caps.extensions = { [TASKS_EXTENSION]: {} };
    else if (eraFeatures(version).tasksUtility)
      caps.tasks = { ...(authDisabled ? {} : { list: {} }), cancel: {}, requests: { tools: { call: {} } } };
  }
  return caps;
}
